#!/bin/sh
# A stand-in teacher: answers the UCI handshake and evaluates every position as
# White half a pawn up, except that the word "silent" in a FEN makes it hang.
# Asked to search, it scores 75 centipawns for the side to move, 30 for White
# when Black is to move (after a bound it must not take), and sees a mate with
# White's rook on a1.
while read -r line; do
  case "$line" in
    uci) echo "id name stand-in"; echo "uciok" ;;
    isready) echo "readyok" ;;
    "position fen 4k5/10/10/10/10/10/10/4K5 w"*) echo "Final evaluation: none (in check)"; skip=1 ;;
    eval) if [ -z "$skip" ]; then echo "Total evaluation: 0.50 (white side)"; fi; skip= ;;
    "position fen 9k/10/10/10/10/10/10/K9 w"*) sleep 30 ;;
    "position fen "*) pos=$line ;;
    "go depth "*)
      case "$pos" in
        *R3K5*) echo "info depth 3 seldepth 3 score mate 2 nodes 40 pv a1a8" ;;
        *" b "*) echo "info depth 1 score cp 10 nodes 5"; echo "info depth 2 score cp -40 upperbound nodes 9"; echo "info depth 2 seldepth 4 multipv 1 score cp -30 nodes 20 pv e7e6" ;;
        *) echo "info depth 1 score cp 5 nodes 5"; echo "info depth 2 seldepth 3 multipv 1 score cp 75 nodes 20 pv e2e4" ;;
      esac
      echo "bestmove e2e4" ;;
    quit) exit 0 ;;
  esac
done
