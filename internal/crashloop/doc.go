// Package crashloop kills a test binary's child processes again and again, for the
// tests that show committed work survives SIGKILL.
//
// The test re-executes its own binary (os.Args[0] with -test.run=^$) with env; its
// TestMain sees env, does the work, prints "READY" once it is under way and "C"
// after each command it has committed. Run waits for READY, lets the child work for
// a moment, kills it with SIGKILL, and counts the commands the child reported.
package crashloop
