#!/bin/sh
# A UCI engine that answers "go" with endless output and ignores SIGTERM.
trap '' TERM
while read -r line; do
	case "$line" in
	uci) echo "id name flood"; echo uciok ;;
	isready) echo readyok ;;
	go*) yes "info depth 1 score cp 0 pv e2e4 flooding the bot" ;;
	quit) exit 0 ;;
	esac
done
