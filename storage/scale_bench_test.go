package storage_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/storage"
)

// scaleSizes are the numbers of games the scale benchmarks run at: a few thousand by
// default, or the comma-separated list in MISSIVE_SCALE_GAMES (e.g. 10000,100000).
func scaleSizes(b *testing.B) []int {
	list := os.Getenv("MISSIVE_SCALE_GAMES")
	if list == "" {
		return []int{2000, 5000}
	}
	var sizes []int
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			b.Fatalf("MISSIVE_SCALE_GAMES: %q is not a number of games", f)
		}
		sizes = append(sizes, n)
	}
	return sizes
}

// scaleVariant is the variant of the scale fixtures: MISSIVE_SCALE_VARIANT, default
// the toy "walk" (cheap to build; its records are as large as a 40-ply game's).
func scaleVariant() string {
	if v := os.Getenv("MISSIVE_SCALE_VARIANT"); v != "" {
		return v
	}
	return "walk"
}

// BenchmarkOpen opens a data file of N games read-write and closes it: the checks
// Open makes before it returns (with the default FullCheckBelow). It reports the
// file's size and the time of one open.
func BenchmarkOpen(b *testing.B) {
	for _, n := range scaleSizes(b) {
		b.Run(fmt.Sprintf("games=%d", n), func(b *testing.B) {
			path := sizedFixture(b, scaleVariant(), n)
			fi, _ := os.Stat(path)
			b.ResetTimer()
			for range b.N {
				s, err := storage.Open(path, benchRegistry(), &storage.Options{NoBackupSocket: true})
				if err != nil {
					b.Fatal(err)
				}
				s.Close()
			}
			b.ReportMetric(float64(fi.Size())/(1<<20), "MB")
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/open")
		})
	}
}

// BenchmarkCheckAfterOpen measures Open with the leaf pages left to the check after
// it, until that check (every leaf page read, every record decoded) has finished.
func BenchmarkCheckAfterOpen(b *testing.B) {
	for _, n := range scaleSizes(b) {
		b.Run(fmt.Sprintf("games=%d", n), func(b *testing.B) {
			path := sizedFixture(b, scaleVariant(), n)
			var opened time.Duration
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				s, err := storage.Open(path, benchRegistry(), &storage.Options{NoBackupSocket: true, FullCheckBelow: -1})
				if err != nil {
					b.Fatal(err)
				}
				opened += time.Since(start)
				<-s.Checked()
				if damage, records := s.CheckResult(); damage != nil || len(records) > 0 {
					b.Fatal(damage, records)
				}
				s.Close()
			}
			b.ReportMetric(float64(opened.Milliseconds())/float64(b.N), "ms-to-serve")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/game")
		})
	}
}

// BenchmarkBackupVerify backs up a closed data file of N games: the copy, its page
// check, bbolt's check, and the decoding of every record with its indexes (no game
// is replayed). It reports the time per game.
func BenchmarkBackupVerify(b *testing.B) {
	for _, n := range scaleSizes(b) {
		b.Run(fmt.Sprintf("games=%d", n), func(b *testing.B) {
			path := sizedFixture(b, scaleVariant(), n)
			out := filepath.Join(b.TempDir(), "backup.db")
			b.ResetTimer()
			for range b.N {
				info, err := storage.BackupFile(context.Background(), benchRegistry(), path, out)
				if err != nil || info.Games != n {
					b.Fatal(info, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/game")
		})
	}
}

// BenchmarkVerifyReplay is Verify, which replays every game: what a backup's check
// cost before it stopped replaying, for comparison with BenchmarkBackupVerify.
func BenchmarkVerifyReplay(b *testing.B) {
	for _, n := range scaleSizes(b) {
		b.Run(fmt.Sprintf("games=%d", n), func(b *testing.B) {
			s, err := storage.Open(sizedFixture(b, scaleVariant(), n), benchRegistry(), &storage.Options{NoBackupSocket: true, ReadOnly: true, CacheSize: -1, SkipCheck: true})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			b.ResetTimer()
			for range b.N {
				if err := s.Verify(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/game")
		})
	}
}
