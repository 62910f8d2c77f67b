#!/bin/sh
# A UCI engine that, at "go", starts a child and waits on it: both think for ever
# and ignore SIGTERM. It writes its pid and its child's, once both run, to the
# file named by $PIDS.
trap '' TERM
while read -r line; do
	case "$line" in
	uci) echo "id name forever"; echo uciok ;;
	isready) echo readyok ;;
	go*)
		(trap '' TERM; exec sleep 600) &
		echo "$$ $!" >"$PIDS.tmp" && mv "$PIDS.tmp" "$PIDS"
		wait
		;;
	quit) exit 0 ;;
	esac
done
