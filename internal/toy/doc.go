// Package toy holds the toy variants the tests play, small games with the
// contracts of package rules that need no real variant: Walk ("walk" and
// "walkplace", kings walking to the far rank, with or without a secret
// placement round first), used by the storage tests, and Place ("toyplace", a
// 4x4 game with two secret, simultaneous placement rounds), used by the play
// service's tests (bot/bottest).
package toy
