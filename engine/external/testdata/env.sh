#!/bin/sh
# A UCI engine that writes its whole environment to the file named by its argument
# and plays e2e4.
env >"$1"
exec "$(dirname "$0")/good.sh"
