package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
)

// Kind is what a link lets its holder do.
type Kind string

// The kinds of link; the texts are stable (they are signed into links).
const (
	// KindView shows a game as everyone who may see it sees it.
	KindView Kind = "v"
	// KindPlayer is personal to one player: the game as that player sees it (their
	// hidden placement), their private analysis, and their moves.
	KindPlayer Kind = "p"
)

// Token is what a link carries, signed: its kind, the game, the player for a
// personal link, and the generation of links it was made in (revoking raises it).
type Token struct {
	Kind   Kind
	Game   string
	Player string
	Gen    uint64
}

// errToken means a link that is malformed, forged or revoked; the page answers as
// for a game that does not exist.
var errToken = errors.New("web: not a valid link")

// macLen is how many bytes of the HMAC-SHA256 a link carries (128 bits).
const macLen = 16

// sign returns t as link text: its fields as JSON and their MAC under key, each
// base64url without padding, joined by a dot.
func sign(key []byte, t Token) string {
	payload, _ := json.Marshal([]any{string(t.Kind), t.Game, t.Player, t.Gen}) // cannot fail
	enc := base64.RawURLEncoding
	return enc.EncodeToString(payload) + "." + enc.EncodeToString(mac(key, payload))
}

func mac(key, payload []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("missive web link\x00"))
	m.Write(payload)
	return m.Sum(nil)[:macLen]
}

// parse checks text's MAC under key and returns its token; it does not check the
// generation (the caller knows the current one).
func parse(key []byte, text string) (Token, error) {
	if len(text) > 600 {
		return Token{}, errToken
	}
	p, s, ok := strings.Cut(text, ".")
	enc := base64.RawURLEncoding
	payload, err1 := enc.DecodeString(p)
	sum, err2 := enc.DecodeString(s)
	if !ok || err1 != nil || err2 != nil || !hmac.Equal(sum, mac(key, payload)) {
		return Token{}, errToken
	}
	var fields []json.RawMessage
	var t Token
	var kind string
	if json.Unmarshal(payload, &fields) != nil || len(fields) != 4 ||
		json.Unmarshal(fields[0], &kind) != nil || json.Unmarshal(fields[1], &t.Game) != nil ||
		json.Unmarshal(fields[2], &t.Player) != nil || json.Unmarshal(fields[3], &t.Gen) != nil {
		return Token{}, errToken
	}
	t.Kind = Kind(kind)
	if (t.Kind != KindView && t.Kind != KindPlayer) || t.Game == "" || (t.Kind == KindPlayer) != (t.Player != "") {
		return Token{}, errToken
	}
	return t, nil
}
