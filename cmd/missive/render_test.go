package main

import (
	"bytes"
	"context"
	"errors"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/missivechess/missive/render"
	"github.com/missivechess/missive/rules"
)

func runRenderArgs(args ...string) (string, error) {
	var out, errOut bytes.Buffer
	err := run(context.Background(), append([]string{"render"}, args...), &out, &errOut)
	return out.String(), err
}

func TestRenderUsageErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "b.png")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--variant", "gothic"}, "-o FILE"},
		{[]string{"--side", "red", "-o", out}, "Say white or black"},
		{[]string{"--variant", "xiangqi", "-o", out}, "There is no game called"},
		{[]string{"-o", out, "e2e4"}, "quote the moves"},
		{[]string{"--width", "x", "-o", out}, "invalid value"},
	}
	for _, c := range cases {
		_, err := runRenderArgs(c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("render %v: error %v, want one saying %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed render left %s behind", out)
	}
}

func TestRenderPNGGIFAndText(t *testing.T) {
	dir := t.TempDir()
	for _, v := range []string{"gothic", "keltic", "gochess", "gess"} {
		out := filepath.Join(dir, v+".png")
		if _, err := runRenderArgs("--variant", v, "--side", "black", "--theme", "night", "-o", out); err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil || img.Bounds().Dx() != 800 {
			t.Errorf("%s: not an 800 px PNG: %v", v, err)
		}
	}
	gifOut := filepath.Join(dir, "game.gif")
	if _, err := runRenderArgs("--variant", "gothic", "--moves", "e2e4 e7e5 g1f3", "--gif", "--delay", "500ms", "-o", gifOut); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(gifOut)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := gif.DecodeAll(f)
	if err != nil || len(g.Image) != 4 || g.Delay[0] != 50 {
		t.Errorf("GIF: %d frames, delays %v, err %v", len(g.Image), g.Delay, err)
	}
	// Gess seen by Black, who moved: Black's home (rank 1) at the bottom.
	text, err := runRenderArgs("--variant", "gess", "--moves", "l3-l6", "--side", "b", "--text")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "rings: white l18; black l6") || !strings.Contains(text, " 6    . . . . . . . . . x . x") {
		t.Errorf("gess text board:\n%s", text)
	}
	// Seen by White (the default side), the board is turned: rank 1 at the top.
	text, err = runRenderArgs("--variant", "gess", "--moves", "l3-l6", "--text")
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(text, "\n"); len(lines) < 2 || !strings.HasPrefix(lines[1], " 1 ") || !strings.Contains(text, " 6    . . . . . . x . x . . .") {
		t.Errorf("gess from White's side:\n%s", text)
	}
	text, err = runRenderArgs("--variant", "keltic", "--side", "b", "--text")
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(text, "\n"); len(lines) < 2 || !strings.HasPrefix(lines[1], " 1        B K B") {
		t.Errorf("keltic from Black's side:\n%s", text)
	}
	raw, err := runRenderArgs("--variant", "keltic", "-o", "-")
	if err != nil || !strings.HasPrefix(raw, "\x89PNG") {
		t.Errorf("-o - wrote %.8q, err %v", raw, err)
	}
}

func TestRenderRefusesBadGames(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "b.png")
	cases := []struct {
		args []string
		want error
		say  string
	}{
		{[]string{"--variant", "gothic", "--moves", "e2e4 e2e4"}, rules.ErrIllegalMove, `move 2 "e2e4"`},
		{[]string{"--variant", "gothic", "--moves", "zz9"}, rules.ErrBadNotation, `move 1 "zz9"`},
		{[]string{"--variant", "keltic", "--fen", "8/8 w"}, rules.ErrBadPosition, "--fen"},
		{[]string{"--variant", "gothic", "--theme", "neon"}, render.ErrBadOptions, "classic, night, ocean"},
		{[]string{"--variant", "gothic", "--width", "50"}, render.ErrBadOptions, "240 to 2400"},
		{[]string{"--variant", "gothic", "--arrows", "e2"}, errUsage, "two squares"},
	}
	for _, c := range cases {
		_, err := runRenderArgs(append(c.args, "-o", out)...)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.say) {
			t.Errorf("render %v: error %v, want %v saying %q", c.args, err, c.want, c.say)
		}
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed render left %s behind", out)
	}
}
