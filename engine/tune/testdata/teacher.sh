#!/bin/sh
# A stand-in teacher: answers the UCI handshake and evaluates every position as
# White half a pawn up, except that the word "silent" in a FEN makes it hang.
while read -r line; do
  case "$line" in
    uci) echo "id name stand-in"; echo "uciok" ;;
    isready) echo "readyok" ;;
    "position fen 4k5/10/10/10/10/10/10/4K5 w"*) echo "Final evaluation: none (in check)"; skip=1 ;;
    eval) if [ -z "$skip" ]; then echo "Total evaluation: 0.50 (white side)"; fi; skip= ;;
    "position fen 9k/10/10/10/10/10/10/K9 w"*) sleep 30 ;;
    quit) exit 0 ;;
  esac
done
