// Package i18n is how Missive speaks the player's language: the languages it
// speaks (Lang), how Discord's locale codes map onto them (Parse, Of), and the
// message catalogues, one per feature package (Catalogue), each built from that
// package's embedded files locales/active.<lang>.yaml with
// github.com/nicksnyder/go-i18n/v2 (CLDR plural rules). A Localizer looks a
// message up in one language, plural-aware, and falls back to English, the source
// language. Catalogue.Problems lists what a catalogue lacks (a language, a key, a
// plural form) or has too many of, and placeholders that differ from the English;
// i18ntest.Check turns them into test failures.
//
// The package sits below the kernel: it names no feature and imports no adapter.
// docs/i18n/README.md says how a package adds its catalogue and a translator a
// language.
package i18n
