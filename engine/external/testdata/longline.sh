#!/bin/sh
# A UCI engine that answers "go" with one endless line and ignores SIGTERM.
trap '' TERM
while read -r line; do
	case "$line" in
	uci) echo "id name longline"; echo uciok ;;
	isready) echo readyok ;;
	go*) printf 'bestmove '; tr -d '\n' </dev/zero ;;
	quit) exit 0 ;;
	esac
done
