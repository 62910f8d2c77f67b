package i18n

import (
	"testing"
	"testing/fstest"
)

// A sentence names commands as the reader's clients show them: the command, its
// subcommand and its options, never a value, never what is not a command.
func TestCommands(t *testing.T) {
	MustLoad("commandstest", fstest.MapFS{
		"locales/active.en.yaml": {Data: []byte("command.zmove.name: zmove\ncommand.zmove.option.game.name: game\ncommand.ztour.name: ztour\ncommand.ztour.join.name: join\ncommand.ztour.join.option.engine.name: engine\nsay: \"Type /zmove game:2 move:e4, or `/ztour join engine:x`; see /nothing and a/zmove.\"\n")},
		"locales/active.de.yaml": {Data: []byte("command.zmove.name: zzug\ncommand.zmove.option.game.name: partie\ncommand.ztour.name: zturnier\ncommand.ztour.join.name: beitreten\ncommand.ztour.join.option.engine.name: engine\nsay: \"Tippe /zmove game:2 move:e4 oder `/ztour join engine:x`; siehe /nothing und a/zmove.\"\n")},
	})
	for _, c := range []struct{ in, want string }{
		{"/zmove game:2 move:e4, then", "/zzug partie:2 move:e4, then"},
		{"(`/ztour join engine:join`)", "(`/zturnier beitreten engine:join`)"},
		{"/ztour info", "/zturnier info"},
		{"a/zmove /nothing", "a/zmove /nothing"},
		{"**/zmove**", "**/zzug**"},
	} {
		if got := Commands(German, c.in); got != c.want {
			t.Errorf("Commands(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := Commands(English, c.in); got != c.in {
			t.Errorf("English Commands(%q) = %q", c.in, got)
		}
	}
	if got := EnglishCommand(German, "", "zzug"); got != "zmove" {
		t.Errorf("EnglishCommand zzug = %q", got)
	}
	if got := EnglishCommand(German, "ztour", "beitreten"); got != "join" {
		t.Errorf("EnglishCommand beitreten = %q", got)
	}
	if got := EnglishCommand(German, "zmove.option", "partie"); got != "game" {
		t.Errorf("EnglishCommand partie = %q", got)
	}
	if got := EnglishCommand(German, "", "zmove"); got != "zmove" {
		t.Errorf("English name typed in German = %q", got)
	}
}
