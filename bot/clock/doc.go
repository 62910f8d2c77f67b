// Package clock is the correspondence clock as plain maths over the clock a game
// stores (storage.Clock): days per move or a time bank (base, increment, cap),
// periods and deadlines, charging a side for the time it took, extra days given by
// the opponent, and a clock frozen by leave and run again. It reads and changes
// games and nothing else: no store, no notices, no words beyond the clock's own
// names. The play service's kernel (package bot) and its features use it.
package clock
