// Package bottest is the one test harness of the play service and its features:
// a service over a real data file in a temporary folder, with the product's
// features plugged in (package features) and fakes for what lies outside — a
// clock the test moves, a renderer that draws text, an engine that plays the first
// legal move, a notifier that records — and the real variants with the toy
// "toyplace" (package internal/toy), a small game with a secret placement phase.
// Tests drive the service as an adapter does, with command lines such as
// "move move:e2e4 game:1".
package bottest
