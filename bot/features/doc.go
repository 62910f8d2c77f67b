// Package features is the list of Missive's features: the one place that names
// them, in the order their commands are best listed. cmd/missive, the console and
// the tests plug the same list into the service (bot.Config.Features).
package features
