#!/bin/sh
# A UCI engine that always plays e2e4 (legal at the start of Gothic Chess).
while read -r line; do
	case "$line" in
	uci) echo "id name good"; echo uciok ;;
	isready) echo readyok ;;
	go*) echo "bestmove e2e4" ;;
	quit) exit 0 ;;
	esac
done
