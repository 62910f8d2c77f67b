#!/bin/sh
# A wrapper that starts a helper child, which keeps the engine's output open and
# ignores SIGTERM, and then runs a well-behaved engine as its own child.
trap '' TERM
(trap '' TERM; exec sleep 600) &
"$(dirname "$0")/good.sh"
