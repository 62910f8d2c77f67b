package external

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The memory limit of an engine.
//
// Each engine has a limit on the memory its processes hold (Config.Memory, 1 GiB
// unless set): a bot on a small server must not be taken down by an engine whose
// hash table is set too large or that leaks. While the engine runs, the bot samples
// every memEvery, while it works on a request (the bot waits for its answer), and
// every memIdleEvery between requests, the memory of the engine and of every
// process it started (the guard's descendants, from /proc/PID/task/TID/children;
// the guard itself is not counted), and an engine over its limit is killed, whole group, with ErrMemory:
// it fails its move as a crashed engine does, with a sentence that says why.
//
// What counts is memory that cannot be given back without swap: RssAnon and
// RssShmem of /proc/PID/status (VmRSS where the kernel gives no split). Pages of
// files the engine maps (tablebases, an NNUE file read by mmap) are not counted:
// the kernel reclaims them under pressure.
//
// Why not the alternatives: RLIMIT_AS bounds address space, not memory (an
// engine's thread stacks and reserved arenas count, and each process of a group
// has a limit of its own), a failed allocation then crashes the engine with no
// word on why, and Go can set it on a child only after it started (prlimit, racy);
// a cgroup's memory.max is exact but needs a cgroup the bot may write, which a
// container or a plain user rarely has. Sampling works everywhere /proc does; its
// cost is that an engine may overshoot its limit by what it allocates in one
// interval before it is stopped.

// DefaultMemory is an engine's memory limit when its configuration sets none.
const DefaultMemory = "1GiB"

// Unlimited, as an engine's memory, switches its limit off.
const Unlimited = "unlimited"

// minMemory is the least limit accepted: below it no engine starts.
const minMemory = 16 << 20

// How often a running engine's memory is sampled: while the bot waits for its
// answer, and between requests, when an engine that does not ponder does nothing.
// A sample costs about half a millisecond of a core (Fairy-Stockfish, 2 threads).
const (
	memEvery     = 100 * time.Millisecond
	memIdleEvery = 2 * time.Second
)

// ErrMemory marks an engine stopped for holding more memory than its limit.
var ErrMemory = errors.New("external: the engine went over its memory limit")

// memoryError is ErrMemory with the sentence for the players and the log.
type memoryError struct {
	name        string
	used, limit int64
}

func (e *memoryError) Error() string { return "external: " + e.Sentence() }

func (e *memoryError) Unwrap() error { return ErrMemory }

// Sentence says which engine went over which limit.
func (e *memoryError) Sentence() string {
	return fmt.Sprintf("%s went over its memory limit of %s (it held %s) and was stopped.", e.name, formatBytes(e.limit), formatBytes(e.used))
}

// memoryUnits are the units a memory size may be written in, by their lower-case
// spelling: binary (KiB, MiB...) and decimal (KB, MB...), as they are defined.
var memoryUnits = map[string]float64{
	"b": 1, "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
	"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
}

// parseMemory reads a memory size such as "512MiB", "1.5 GiB" or "800MB" (or
// "unlimited", which is 0). A number without a unit, or with one that could mean
// either (M, G), is refused rather than guessed.
func parseMemory(text string) (int64, error) {
	s := strings.TrimSpace(text)
	if strings.EqualFold(s, Unlimited) {
		return 0, nil
	}
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' && r != '-' && r != '+' })
	if i < 0 {
		i = len(s)
	}
	num, unit := s[:i], strings.ToLower(strings.TrimSpace(s[i:]))
	n, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
		return 0, fmt.Errorf("%q is not a size; write one such as 512MiB or 2GiB, or %s", text, Unlimited)
	}
	if unit == "" {
		return 0, fmt.Errorf("%q has no unit; write one such as 512MiB or 2GiB", text)
	}
	mult, ok := memoryUnits[unit]
	if !ok {
		if u := strings.TrimSuffix(unit, "i"); len(u) == 1 && strings.Contains("kmgt", u) {
			u = strings.ToUpper(u)
			return 0, fmt.Errorf("%q could mean two sizes: write %s%siB (binary) or %s%sB (decimal)", text, num, u, num, u)
		}
		return 0, fmt.Errorf("%q is not a size: its unit is not one of KiB, MiB, GiB, TiB, KB, MB, GB, TB", text)
	}
	bytes := n * mult
	if bytes <= 0 {
		return 0, fmt.Errorf("%q is not above zero; write a size such as 512MiB, or %s", text, Unlimited)
	}
	if bytes < minMemory {
		return 0, fmt.Errorf("%q is too little for an engine to start; the least is %s", text, formatBytes(minMemory))
	}
	if bytes >= math.MaxInt64 {
		return 0, fmt.Errorf("%q is more than any machine has; write %s for no limit", text, Unlimited)
	}
	return int64(bytes), nil
}

// formatBytes writes n bytes in the largest binary unit that keeps it at least 1,
// with at most one decimal.
func formatBytes(n int64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB"}
	f, u := float64(n), 0
	for f >= 1024 && u < len(units)-1 {
		f, u = f/1024, u+1
	}
	return strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64) + " " + units[u]
}

// watchMemory samples the memory of the engine under guard pid (see above) until
// it exits, and kills it with a memoryError once it holds more than limit.
func (p *process) watchMemory(pid int, limit int64) {
	t := time.NewTicker(memEvery)
	defer t.Stop()
	var last time.Time
	for {
		select {
		case <-p.exit:
			return
		case now := <-t.C:
			if p.waiting.Load() == 0 && now.Sub(last) < memIdleEvery {
				continue
			}
			last = now
		}
		if used := treeMemory(pid); used > limit {
			p.cutOff(&memoryError{name: p.name, used: used, limit: limit})
			return
		}
	}
}

// treeMemory returns the memory (see above) held by the descendants of pid, from
// /proc; a process that ends meanwhile counts for nothing. On a kernel without the
// children files (CONFIG_PROC_CHILDREN), it counts the processes of pid's group.
func treeMemory(pid int) int64 {
	queue, ok := children(pid)
	if !ok {
		return groupMemory(pid)
	}
	var total int64
	seen := map[int]bool{pid: true}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if seen[c] {
			continue
		}
		seen[c] = true
		total += heldMemory(c)
		more, _ := children(c)
		queue = append(queue, more...)
	}
	return total
}

// children lists the children of every thread of pid, and whether the kernel tells
// them (a process that has ended has none).
func children(pid int) ([]int, bool) {
	files, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	if len(files) == 0 {
		_, err := os.Stat(fmt.Sprintf("/proc/%d", pid))
		return nil, err != nil
	}
	var out []int
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, w := range strings.Fields(string(data)) {
			if c, err := strconv.Atoi(w); err == nil {
				out = append(out, c)
			}
		}
	}
	return out, true
}

// groupMemory returns the memory held by the processes of group pgid but its
// leader, from /proc.
func groupMemory(pgid int) int64 {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var total int64
	for _, path := range stats {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces, so cut at the last ')'.
		i := bytes.LastIndexByte(data, ')')
		f := strings.Fields(string(data[i+1:]))
		pid, err := strconv.Atoi(string(bytes.Fields(data)[0]))
		if i < 0 || len(f) < 3 || err != nil || pid == pgid || f[2] != strconv.Itoa(pgid) {
			continue
		}
		total += heldMemory(pid)
	}
	return total
}

// heldMemory returns RssAnon+RssShmem of pid (VmRSS when the kernel gives no split),
// in bytes.
func heldMemory(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	fields := map[string]int64{}
	for line := range bytes.Lines(data) {
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		f := strings.Fields(string(value))
		if len(f) == 2 && f[1] == "kB" {
			if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil {
				fields[string(name)] = kb << 10
			}
		}
	}
	if anon, ok := fields["RssAnon"]; ok {
		return anon + fields["RssShmem"]
	}
	return fields["VmRSS"]
}
