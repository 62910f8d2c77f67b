package discordtest

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSpecCheck(t *testing.T) {
	t.Parallel()
	spec := SpecFor(t)
	long := strings.Repeat("x", 33)
	cases := []struct {
		name, method, path, query, ctype, body string
		route                                  string
		want                                   []string // substrings of violations; nil = valid
	}{
		{name: "bulk overwrite ok", method: "PUT", path: "/applications/1234/commands", ctype: "application/json",
			body:  `[{"name":"move","description":"Play a move","type":1,"default_member_permissions":"8","options":[{"type":3,"name":"move","description":"the move","required":true,"autocomplete":true}]}]`,
			route: "/applications/{application_id}/commands"},
		{name: "command name too long", method: "PUT", path: "/applications/1234/commands", ctype: "application/json",
			body: `[{"name":"` + long + `","description":"d"}]`, want: []string{`"/0/name"`}},
		{name: "callback unknown type", method: "POST", path: "/interactions/99/tok/callback", ctype: "application/json",
			body: `{"type":42,"data":{"content":"hi"}}`, want: []string{`"/type"`, "42"}},
		{name: "callback message ok", method: "POST", path: "/interactions/99/tok/callback", ctype: "application/json",
			body: `{"type":4,"data":{"content":"hi","flags":64}}`, route: "/interactions/{interaction_id}/{interaction_token}/callback"},
		{name: "content too long", method: "POST", path: "/interactions/99/tok/callback", ctype: "application/json",
			body: `{"type":4,"data":{"content":"` + strings.Repeat("a", 2001) + `"}}`, want: []string{`"/data/content"`}},
		{name: "snowflake path param", method: "POST", path: "/channels/general/messages", ctype: "application/json",
			body: `{"content":"x"}`, want: []string{`path parameter "channel_id"`}},
		{name: "unknown route", method: "GET", path: "/nope/1", want: []string{"no such route"}},
		{name: "wrong method", method: "DELETE", path: "/gateway", want: []string{"method DELETE not allowed"}},
		{name: "query ok", method: "POST", path: "/webhooks/1/tok", query: "wait=true", ctype: "application/json", body: `{"content":"x"}`},
		{name: "query bad", method: "POST", path: "/webhooks/1/tok", query: "wait=maybe", ctype: "application/json", body: `{"content":"x"}`, want: []string{`query parameter "wait"`}},
		{name: "query unknown", method: "POST", path: "/webhooks/1/tok", query: "foo=1", ctype: "application/json", body: `{"content":"x"}`, want: []string{`query parameter "foo"`}},
		{name: "original", method: "PATCH", path: "/webhooks/1/tok/messages/@original", ctype: "application/json", body: `{"content":"x"}`,
			route: "/webhooks/{webhook_id}/{webhook_token}/messages/@original"},
		{name: "too many choices", method: "POST", path: "/interactions/99/tok/callback", ctype: "application/json",
			body: `{"type":8,"data":{"choices":[` + strings.TrimSuffix(strings.Repeat(`{"name":"a","value":"a"},`, 26), ",") + `]}}`, want: []string{`"/data/choices"`}},
		{name: "nullable fields", method: "POST", path: "/channels/1/messages", ctype: "application/json",
			body: `{"content":null,"embeds":null,"components":[{"type":1,"components":[{"type":2,"style":1,"custom_id":"a","label":"A"}]}]}`},
		{name: "button label too long", method: "POST", path: "/channels/1/messages", ctype: "application/json",
			body: `{"components":[{"type":1,"components":[{"type":2,"style":1,"custom_id":"a","label":"` + strings.Repeat("l", 81) + `"}]}]}`,
			want: []string{`"/components/0/components/0/label"`}},
		{name: "me", method: "GET", path: "/users/@me", route: "/users/@me"},
		{name: "not json", method: "POST", path: "/channels/1/messages", ctype: "application/json", body: `{`, want: []string{"not valid JSON"}},
		{name: "missing body", method: "POST", path: "/users/@me/channels", want: []string{"required"}},
		{name: "multipart", method: "POST", path: "/channels/1/messages", ctype: "multipart/form-data; boundary=XX",
			body: "--XX\r\nContent-Disposition: form-data; name=\"payload_json\"\r\nContent-Type: application/json\r\n\r\n{\"content\":\"hi\",\"embeds\":[{\"title\":\"" + strings.Repeat("t", 300) + "\"}]}\r\n--XX\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\nPNG\r\n--XX--\r\n",
			want: []string{`"/embeds/0/title"`}},
	}
	for _, c := range cases {
		q, _ := url.ParseQuery(c.query)
		m, vs := spec.Check(c.method, c.path, q, c.ctype, []byte(c.body))
		if c.want == nil {
			if len(vs) > 0 {
				t.Errorf("%s: unexpected violations %v", c.name, vs)
			}
			if c.route != "" && (m == nil || m.Template != c.route) {
				t.Errorf("%s: matched %+v, want %s", c.name, m, c.route)
			}
			continue
		}
		if len(vs) == 0 {
			t.Errorf("%s: no violation, want %q", c.name, c.want)
			continue
		}
		all := ""
		for _, v := range vs {
			all += v.String() + "\n"
		}
		for _, w := range c.want {
			if !strings.Contains(all, w) {
				t.Errorf("%s: violations\n%s do not mention %q", c.name, all, w)
			}
		}
		t.Logf("%s: %s", c.name, all)
	}
}

// TestFakeRoutesAreDiscords checks that every route the fake implements is in Discord's
// description under the same template, so recorded routes read like Discord's docs.
func TestFakeRoutesAreDiscords(t *testing.T) {
	t.Parallel()
	spec := SpecFor(t)
	srv := New(t, Config{Spec: spec})
	for _, r := range srv.routes {
		path := r.template
		for _, seg := range r.segments {
			if isParam(seg) {
				path = strings.Replace(path, seg, "1234", 1)
			}
		}
		m, vs := spec.Route(r.method, path)
		if len(vs) > 0 || m.Template != r.template {
			t.Errorf("%s %s: spec says %+v %v", r.method, r.template, m, vs)
		}
	}
}

// TestSpecIsTheRepositorysCopy checks that the description comes from the repository,
// that it is the file testdata/README.md says was taken from discord/discord-api-spec
// (the Git blob id recorded there), and that it is Discord's v10 API.
func TestSpecIsTheRepositorysCopy(t *testing.T) {
	t.Setenv(SpecEnv, "")
	onDisk, err := os.ReadFile(filepath.Join("testdata", "openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(onDisk, specFile) {
		t.Fatal("the embedded description differs from testdata/openapi.json")
	}
	readme, err := os.ReadFile(filepath.Join("testdata", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(specFile))
	h.Write(specFile)
	if blob := hex.EncodeToString(h.Sum(nil)); !bytes.Contains(readme, []byte(blob)) {
		t.Errorf("testdata/README.md does not record the Git blob id %s of testdata/openapi.json: update it with the file", blob)
	}
	spec, err := loadDefaultSpec()
	if err != nil {
		t.Fatal(err)
	}
	if m, vs := spec.Route("POST", "/channels/1/messages"); len(vs) > 0 || m.OperationID != "create_message" {
		t.Errorf("POST /channels/1/messages = %+v %v, want create_message", m, vs)
	}
}

// TestSpecEnvOverrides checks that $DISCORD_OPENAPI names another description, and that
// one that cannot be read is an error, never a silent fallback.
func TestSpecEnvOverrides(t *testing.T) {
	t.Setenv(SpecEnv, "/nonexistent/openapi.json")
	if _, err := loadDefaultSpec(); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), SpecEnv) {
		t.Errorf("loadDefaultSpec with a missing $%s = %v, want an error naming it and wrapping os.ErrNotExist", SpecEnv, err)
	}
	p := filepath.Join(t.TempDir(), "openapi.json")
	tiny := `{"openapi":"3.1.0","paths":{"/ping":{"get":{"operationId":"ping"}}}}`
	if err := os.WriteFile(p, []byte(tiny), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(SpecEnv, p)
	spec, err := loadDefaultSpec()
	if err != nil {
		t.Fatal(err)
	}
	if m, vs := spec.Route("GET", "/ping"); len(vs) > 0 || m.OperationID != "ping" {
		t.Errorf("GET /ping = %+v %v, want the override's ping", m, vs)
	}
	if _, vs := spec.Route("POST", "/channels/1/messages"); len(vs) == 0 {
		t.Error("the override's description has Discord's routes too: it was not used alone")
	}
}

// BenchmarkSpecCheck measures validating one interaction callback with a message,
// components and an embed, the commonest request of the bot.
func BenchmarkSpecCheck(b *testing.B) {
	spec := SpecFor(b)
	body := []byte(`{"type":4,"data":{"content":"<@1> to move","flags":64,"embeds":[{"title":"Gothic Chess","image":{"url":"attachment://board.png"}}],` +
		`"components":[{"type":1,"components":[{"type":2,"style":4,"custom_id":"resign","label":"Resign"},{"type":2,"style":2,"custom_id":"draw","label":"Offer draw"}]}]}}`)
	if _, vs := spec.Check("POST", "/interactions/1234/tok/callback", nil, "application/json", body); len(vs) > 0 {
		b.Fatal(vs)
	}
	b.ResetTimer()
	for b.Loop() {
		spec.Check("POST", "/interactions/1234/tok/callback", nil, "application/json", body)
	}
}
