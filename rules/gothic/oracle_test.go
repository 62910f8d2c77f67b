package gothic_test

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/internal/oracle"
	"github.com/missivechess/missive/rules/gothic"
	"github.com/missivechess/missive/rules/internal/chesstest"
)

// fsf is one long-lived Fairy-Stockfish process speaking UCI.
type fsf struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

func startFSF(t *testing.T) *fsf {
	t.Helper()
	path := oracle.Path(t, "fairy-stockfish")
	cmd := exec.Command(path)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", path, err)
	}
	e := &fsf{cmd: cmd, in: in, out: bufio.NewScanner(outPipe)}
	t.Cleanup(func() {
		fmt.Fprintln(e.in, "quit")
		e.in.Close()
		done := make(chan struct{})
		go func() { e.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			e.cmd.Process.Kill()
		}
	})
	e.send("uci")
	e.waitFor(t, "uciok")
	e.send("setoption name UCI_Variant value gothic")
	e.send("isready")
	e.waitFor(t, "readyok")
	return e
}

func (e *fsf) send(s string) { fmt.Fprintln(e.in, s) }

func (e *fsf) waitFor(t *testing.T, prefix string) {
	t.Helper()
	for e.out.Scan() {
		if strings.HasPrefix(e.out.Text(), prefix) {
			return
		}
	}
	t.Fatalf("fairy-stockfish ended before %q: %v", prefix, e.out.Err())
}

// divide runs "go perft depth" on fen and returns the count below each move.
func (e *fsf) divide(t *testing.T, fen string, depth int) map[string]uint64 {
	t.Helper()
	e.send("position fen " + fen)
	e.send("go perft " + strconv.Itoa(depth))
	res := map[string]uint64{}
	for e.out.Scan() {
		line := e.out.Text()
		if strings.HasPrefix(line, "Nodes searched") {
			return res
		}
		mv, n, ok := strings.Cut(line, ": ")
		if !ok {
			continue
		}
		c, err := strconv.ParseUint(strings.TrimSpace(n), 10, 64)
		if err != nil {
			continue
		}
		res[mv] = c
	}
	t.Fatalf("fairy-stockfish ended during perft of %s: %v", fen, e.out.Err())
	return nil
}

// randomStarts are where the random games begin: the start position, both
// sides free to castle both ways, pawns about to promote on both sides, and a
// developed middle game.
var randomStarts = []string{
	gothic.StartFEN,
	"r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1",
	"r4k3r/PPp4pPP/10/10/10/10/ppP4Ppp/R4K3R w KQkq - 0 1",
	"1nabqkbcn1/p1ppppppp1/1r6r1/1p6p1/3PP5/2N4N2/PPP2PPPPP/R1ABQKBC1R w KQ - 0 5",
}

func compareDivide(t *testing.T, fen string, ours, theirs map[string]uint64) {
	t.Helper()
	if d := chesstest.DiffDivide(ours, theirs, "fairy-stockfish"); len(d) > 0 {
		t.Errorf("divide differs for %s:\n  %s", fen, strings.Join(d, "\n  "))
	}
}

// TestFairyStockfishDivide compares perft 2 and 3, move by move, with
// Fairy-Stockfish on a few hundred positions from random play.
func TestFairyStockfishDivide(t *testing.T) {
	e := startFSF(t)
	n2, n3 := 300, 150
	if testing.Short() {
		n2, n3 = 60, 20
	}
	positions := chesstest.RandomPositions(gothic.New(), randomStarts, n2, 2024)
	var ep, castle, promo, check, rights int
	for _, p := range positions {
		b := p.SearchBoard()
		if f := strings.Fields(p.String()); f[2] != "-" {
			rights++
		}
		for _, m := range b.GenerateMoves(nil) {
			switch {
			case m.IsEnPassant():
				ep++
			case m.IsCastling():
				castle++
			case m.Promotion() != 0:
				promo++
			}
		}
		if b.InCheck() {
			check++
		}
	}
	t.Logf("%d positions: %d en passant, %d castling, %d promotion moves; %d in check, %d with castling rights",
		len(positions), ep, castle, promo, check, rights)
	if ep == 0 || castle == 0 || promo == 0 || check == 0 || rights < len(positions)/10 {
		t.Fatalf("the random positions miss a special rule (ep %d, castling %d, promotion %d, check %d); change the seed", ep, castle, promo, check)
	}
	for i, p := range positions {
		fen := p.String()
		compareDivide(t, fen, chesstest.Divide(p, 2), e.divide(t, fen, 2))
		if i < n3 {
			compareDivide(t, fen, chesstest.Divide(p, 3), e.divide(t, fen, 3))
		}
		if t.Failed() {
			break
		}
	}
}
