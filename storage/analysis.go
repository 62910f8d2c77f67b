package storage

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Analysis is one player's private analysis of one game, made on the game's web
// page: its variations and notes as the page keeps them (Data, a JSON document
// the web adapter reads and checks). Its key is the game and the player; nothing
// but that player's own requests may read it.
type Analysis struct {
	Game   string          `json:"game"`
	Player string          `json:"player"`
	Data   json.RawMessage `json:"data"`
	Stamp
}

// MaxAnalysis bounds the size of an analysis's data in bytes.
const MaxAnalysis = 256 << 10

var kindAnalysis = &kind{"analysis", bAnalyses}

func (a *Analysis) recordKey() []byte     { return key(a.Game, a.Player) }
func (a *Analysis) indexes() []indexEntry { return nil }

func (a *Analysis) validate() error {
	if err := checkKeyPart("analysis game id", a.Game, true); err != nil {
		return err
	}
	if err := checkKeyPart("analysis player id", a.Player, true); err != nil {
		return err
	}
	what := "analysis of game " + a.Game + " by " + a.Player
	if len(a.Data) > MaxAnalysis {
		return fmt.Errorf("storage: %s is %d bytes, more than %d: %w", what, len(a.Data), MaxAnalysis, ErrInvalid)
	}
	if !json.Valid(a.Data) {
		return fmt.Errorf("storage: %s is not JSON: %w", what, ErrInvalid)
	}
	return nil
}

// Analysis returns player's analysis of game, or an error wrapping ErrNotFound.
func (tx *Tx) Analysis(game, player string) (*Analysis, error) {
	return getRecord[Analysis](tx, kindAnalysis, key(game, player))
}

// PutAnalysis writes a with the version check (Version 0 creates it).
func (tx *Tx) PutAnalysis(a *Analysis) error {
	return putRecord(tx, kindAnalysis, a)
}

// metaWebSecretKey holds the key that signs web links (see Tx.WebSecret).
var metaWebSecretKey = []byte("web-secret")

// webSecretLen is the length in bytes of the web links' signing key.
const webSecretLen = 32

// WebSecret returns the key that signs the web pages' links, making it (32
// random bytes) in a write transaction the first time. It lives only in the data
// file: whoever holds the file can sign links, so it is never logged or shown.
func (tx *Tx) WebSecret() ([]byte, error) {
	meta, err := tx.bucket(bMeta)
	if err != nil {
		return nil, err
	}
	if raw := meta.Get(metaWebSecretKey); raw != nil {
		b, err := hex.DecodeString(string(raw))
		if err != nil || len(b) != webSecretLen {
			return nil, fmt.Errorf("storage: data file %s has a web link key that is not %d bytes of hex: %w", tx.s.path, webSecretLen, ErrCorrupt)
		}
		return b, nil
	}
	if err := tx.writable(); err != nil {
		return nil, fmt.Errorf("storage: data file %s has no web link key yet: %w", tx.s.path, err)
	}
	b := make([]byte, webSecretLen)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("storage: making the web link key: %w", err)
	}
	if err := tx.putMeta(metaWebSecretKey, hex.EncodeToString(b)); err != nil {
		return nil, err
	}
	return b, nil
}

// TokenGeneration returns the generation of game's web links for player (""
// for the links anyone who may see the game gets): 0 until one is revoked. A link
// signed for an older generation no longer opens the page.
func (tx *Tx) TokenGeneration(game, player string) (uint64, error) {
	if err := checkTokenKey(game, player); err != nil {
		return 0, err
	}
	b, err := tx.bucket(bWebTokens)
	if err != nil {
		return 0, err
	}
	raw := b.Get(key(game, player))
	if raw == nil {
		return 0, nil
	}
	n, err := strconv.ParseUint(string(raw), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("storage: data file %s has a web link generation %q for game %s: %w", tx.s.path, raw, game, ErrCorrupt)
	}
	return n, nil
}

// RevokeTokens makes every web link of game for player ("" for the viewers'
// links) signed so far stop working, and returns the new generation.
func (tx *Tx) RevokeTokens(game, player string) (uint64, error) {
	n, err := tx.TokenGeneration(game, player)
	if err != nil {
		return 0, err
	}
	if err := tx.writable(); err != nil {
		return 0, err
	}
	b, err := tx.bucket(bWebTokens)
	if err != nil {
		return 0, err
	}
	n++
	tx.dirty = true
	return n, b.Put(key(game, player), []byte(strconv.FormatUint(n, 10)))
}

// checkTokenKey validates the parts of a web link generation's key.
func checkTokenKey(game, player string) error {
	return errors.Join(checkKeyPart("web link game id", game, true), checkKeyPart("web link player id", player, false))
}

// TokenGenerations calls fn with every web link generation stored (those raised
// by RevokeTokens), for a web server to hold in memory.
func (tx *Tx) TokenGenerations(fn func(game, player string, gen uint64)) error {
	b, err := tx.bucket(bWebTokens)
	if err != nil {
		return err
	}
	return b.ForEach(func(k, raw []byte) error {
		game, player, ok := bytes.Cut(k, []byte{sep})
		n, err := strconv.ParseUint(string(raw), 10, 64)
		if !ok || err != nil {
			return fmt.Errorf("storage: data file %s has a bad web link generation %q under %q: %w", tx.s.path, raw, k, ErrCorrupt)
		}
		fn(string(game), string(player), n)
		return nil
	})
}
