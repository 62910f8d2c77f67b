// Package oracle finds the external programs that tests use as references
// (fairy-stockfish, fairymax): required when CI=true, skipped otherwise.
package oracle
