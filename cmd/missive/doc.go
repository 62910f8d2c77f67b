// Command missive runs the Missive bot and its tools. See "missive help".
package main
