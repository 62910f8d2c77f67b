package discord

import (
	"errors"
	"maps"
	"net/http"

	"github.com/bwmarrin/discordgo"
)

// FailureKind names a way a request to Discord failed; the texts are stable, for
// metric labels.
type FailureKind string

// The kinds of failure, after Discord's JSON error codes
// (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes).
const (
	FailRateLimited        FailureKind = "rate-limited"        // 429
	FailServer             FailureKind = "server-error"        // 5xx
	FailNetwork            FailureKind = "network"             // no answer: a dropped connection, a timeout
	FailUnknownChannel     FailureKind = "unknown-channel"     // 10003: deleted
	FailMissingAccess      FailureKind = "missing-access"      // 50001: the bot cannot see it
	FailMissingPermissions FailureKind = "missing-permissions" // 50013
	FailDMClosed           FailureKind = "dm-closed"           // 50007
	FailThreadArchived     FailureKind = "thread-archived"     // 50083
	FailThreadLocked       FailureKind = "thread-locked"       // 160005
	FailThreadCap          FailureKind = "thread-cap"          // 160006, 160007: too many active threads
	FailForumChannel       FailureKind = "forum-channel"       // 40058: a forum or media channel takes no messages
	FailInteractionExpired FailureKind = "interaction-expired" // 10062, 10015, 50027: too late to answer
	FailRefused            FailureKind = "refused"             // any other answer: the request itself is wrong
)

// Discord's error codes the adapter copes with.
const (
	codeUnknownChannel     = 10003
	codeUnknownWebhook     = 10015
	codeUnknownInteraction = 10062
	codeMissingAccess      = 50001
	codeCannotDM           = 50007 // the user blocks direct messages
	codeMissingPermissions = 50013 // no permission to create a thread here
	codeInvalidToken       = 50027
	codeForumMessage       = 40058
	codeThreadArchived     = 50083
	codeThreadLocked       = 160005
	codeThreadCap          = 160006
	codeNewsThreadCap      = 160007
)

// errForum is a post meant for a forum or media channel itself, which takes no
// messages, only posts (threads).
var errForum = errors.New("discord: a forum channel takes no messages, only posts")

// Classify says how err, returned by a request to Discord, failed, and whether the same
// request may succeed later (transient: rate limits, Discord's 5xx, the network) or
// will not (permanent: a deleted channel, a missing permission, a locked thread...).
// The bot's retry logic retries only transient failures.
func Classify(err error) (kind FailureKind, transient bool) {
	var re *discordgo.RESTError
	var rl *discordgo.RateLimitError
	switch {
	case errors.As(err, &rl):
		return FailRateLimited, true
	case errors.As(err, &re):
		if re.Response != nil {
			switch s := re.Response.StatusCode; {
			case s == http.StatusTooManyRequests:
				return FailRateLimited, true
			case s >= 500:
				return FailServer, true
			}
		}
		code := 0
		if re.Message != nil {
			code = re.Message.Code
		}
		switch code {
		case codeUnknownChannel:
			return FailUnknownChannel, false
		case codeMissingAccess:
			return FailMissingAccess, false
		case codeMissingPermissions:
			return FailMissingPermissions, false
		case codeCannotDM:
			return FailDMClosed, false
		case codeThreadArchived:
			return FailThreadArchived, false
		case codeThreadLocked:
			return FailThreadLocked, false
		case codeThreadCap, codeNewsThreadCap:
			return FailThreadCap, false
		case codeForumMessage:
			return FailForumChannel, false
		case codeUnknownInteraction, codeUnknownWebhook, codeInvalidToken:
			return FailInteractionExpired, false
		}
		return FailRefused, false
	case errors.Is(err, errForum):
		return FailForumChannel, false
	case errors.Is(err, discordgo.ErrJSONUnmarshal):
		return FailRefused, false
	}
	// No answer from Discord: a network error, a timeout, or discordgo giving up after
	// retrying a 502.
	return FailNetwork, true
}

// Transient reports whether err, returned by a request to Discord, may succeed when
// the request is made again later.
func Transient(err error) bool {
	_, t := Classify(err)
	return t
}

// Failures returns how many requests to Discord failed since the bot started, by kind
// (for metrics).
func (b *Bot) Failures() map[FailureKind]int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return maps.Clone(b.failures)
}

// failed counts err (nil counts nothing) and returns its kind.
func (b *Bot) failed(err error) FailureKind {
	if err == nil {
		return ""
	}
	k, _ := Classify(err)
	b.mu.Lock()
	b.failures[k]++
	b.mu.Unlock()
	return k
}

// code returns err's Discord JSON error code, or 0.
func code(err error) int {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil {
		return re.Message.Code
	}
	return 0
}
