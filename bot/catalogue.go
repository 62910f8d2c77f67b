package bot

import (
	"embed"

	"github.com/missivechess/missive/bot/i18n"
)

//go:embed locales/*.yaml
var localeFiles embed.FS

// catalogue holds the kernel's own sentences in every language Missive speaks
// (locales/active.<lang>.yaml); Catalogue returns it to tests.
var catalogue = i18n.MustLoad("bot", localeFiles)

// Catalogue returns the kernel's message catalogue.
func Catalogue() *i18n.Catalogue { return catalogue }
