#!/bin/sh
# A UCI engine that never answers "go": it waits on a child that keeps its output
# open, and both ignore SIGTERM.
trap '' TERM
while read -r line; do
	case "$line" in
	uci) echo "id name hang"; echo uciok ;;
	isready) echo readyok ;;
	go*) sleep 600 ;;
	quit) exit 0 ;;
	esac
done
