// Package variants assembles the registry of every game Missive plays.
package variants
