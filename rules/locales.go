package rules

import "embed"

// LocaleFiles are the rules' message catalogue, locales/active.<lang>.yaml: the
// sentences of the refusals that have a Key (see Error), in every language Missive
// speaks. The rules import no translation machinery; the bot loads these files.
//
//go:embed locales/*.yaml
var LocaleFiles embed.FS
