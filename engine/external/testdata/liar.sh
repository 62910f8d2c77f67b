#!/bin/sh
# A UCI engine that answers with an illegal move (a pawn three squares ahead) and
# ignores SIGTERM.
trap '' TERM
while read -r line; do
	case "$line" in
	uci) echo "id name liar"; echo uciok ;;
	isready) echo readyok ;;
	go*) echo "bestmove e2e5" ;;
	quit) exit 0 ;;
	esac
done
