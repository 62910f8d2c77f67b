// Package uciserver makes the built-in engine speak UCI, with the UCI_Variant option
// selecting one of Missive's games, so that it runs under engine GUIs and match tools.
package uciserver
