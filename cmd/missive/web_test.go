package main

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
)

// missive console --web serves the pages: it prints their address, and each
// board comes with its game page's address on that server; /web gives the
// player's own link.
func TestConsoleWeb(t *testing.T) {
	old := stdin
	stdin = strings.NewReader("/challenge variant:keltic opponent:bob\n/as bob\n/accept\n/web\n")
	defer func() { stdin = old }()
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"console", "--data", t.TempDir() + "/c.db", "--web", "127.0.0.1:0"}, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	text := out.String()
	m := regexp.MustCompile(`Web pages at (http://127\.0\.0\.1:\d+):`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no address printed:\n%s", text)
	}
	if !regexp.MustCompile(`Web page: ` + regexp.QuoteMeta(m[1]) + `/g/1\?t=\S+`).MatchString(text) {
		t.Errorf("the board has no link to game 1's page on %s:\n%s", m[1], text)
	}
	if !strings.Contains(text, "Your own page for game 1") {
		t.Errorf("/web did not give bob his own link:\n%s", text)
	}
}

// The web configuration is checked: an address that is not host:port, a public
// address that is not http(s), or one without a listen address, is refused.
func TestWebConfig(t *testing.T) {
	for _, bad := range []string{
		"web: {listen: nowhere}",
		"web: {listen: \"127.0.0.1:8080\", public_url: \"ftp://x\"}",
		"web: {public_url: \"https://missive.example.org\"}",
	} {
		if _, err := parseRunConfig([]byte(bad)); !errors.Is(err, errConfig) {
			t.Errorf("%s: %v, want a configuration error", bad, err)
		}
	}
	cfg, err := parseRunConfig([]byte("web: {listen: \"127.0.0.1:8080\", public_url: \"https://missive.example.org\"}"))
	if err != nil || cfg.Web.Listen != "127.0.0.1:8080" || cfg.Web.Public != "https://missive.example.org" {
		t.Errorf("good web configuration: %+v, %v", cfg, err)
	}
}
