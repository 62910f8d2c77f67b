#!/bin/sh
# A UCI engine that, at "go", takes about 256 MiB (held in a shell variable) and
# never answers; with the argument "grandchild", a child of its child takes it.
hog() { x=$(head -c 268435456 /dev/zero | tr '\0' x); sleep 600; }
while read -r line; do
	case "$line" in
	uci) echo "id name hog"; echo uciok ;;
	isready) echo readyok ;;
	go*) if [ "$1" = grandchild ]; then (hog & wait) & wait; else hog; fi ;;
	quit) exit 0 ;;
	esac
done
