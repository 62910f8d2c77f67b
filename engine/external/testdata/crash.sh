#!/bin/sh
# A UCI engine that dies by SIGKILL at "go" and leaves a child holding its output.
while read -r line; do
	case "$line" in
	uci) echo "id name crash"; echo uciok ;;
	isready) echo readyok ;;
	go*) (trap '' TERM; exec sleep 600) & kill -9 $$ ;;
	quit) exit 0 ;;
	esac
done
