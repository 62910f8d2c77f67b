package external

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"gopkg.in/yaml.v3"

	"github.com/missivechess/missive/rules/variants"
)

// Protocols an engine may speak.
const (
	UCI    = "uci"
	XBoard = "xboard"
)

// Config describes one external engine, as written in the YAML configuration:
//
//	engines:
//	  - name: fairy-stockfish
//	    command: /usr/games/fairy-stockfish
//	    protocol: uci
//	    variants: {gothic: gothic}      # our key: the engine's variant name
//	    options: {Threads: "1", Hash: "32"}
//	    think: 2s
//	    env: {FSF_DIR: /var/lib/fsf}    # the engine's whole environment, with PATH and HOME
//	    memory: 512MiB                  # what its processes may hold (default 1GiB)
//	  - name: fairymax
//	    command: /usr/games/fairymax
//	    protocol: xboard
//	    variants: {gothic: gothic}
//	    think: 2s
type Config struct {
	Name     string            `yaml:"name"`
	Command  string            `yaml:"command"`
	Args     []string          `yaml:"args"`
	Protocol string            `yaml:"protocol"`
	Variants map[string]string `yaml:"variants"`
	// Select is how the variant is chosen: "UCI_Variant" (UCI, the default) or
	// "variant" (XBoard, the default); "none" sends nothing (an orthodox engine).
	Select  string            `yaml:"select"`
	Options map[string]string `yaml:"options"`
	Think   time.Duration     `yaml:"think"`
	// Timeout bounds handshakes, any read beyond the think time and a search of
	// a number of nodes (default 10s).
	Timeout time.Duration `yaml:"timeout"`
	// Max bounds the processes of this engine running at once (default 2).
	Max int `yaml:"max"`
	// Env is the environment of the engine beyond PATH and HOME, the only variables
	// of the bot it receives (never the token).
	Env map[string]string `yaml:"env"`
	// Memory bounds the memory the engine's processes hold together, as "512MiB",
	// "2GiB" or "800MB", or "unlimited" (default DefaultMemory); an engine over it
	// is stopped and fails its move (see memory.go).
	Memory string `yaml:"memory"`
}

// ErrConfig marks an invalid engine configuration.
var ErrConfig = errors.New("external: bad engine configuration")

// Validate checks c and fills in defaults.
func (c *Config) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: engine %q: %s", ErrConfig, c.Name, fmt.Sprintf(format, args...))
	}
	if strings.TrimSpace(c.Name) == "" {
		return fmt.Errorf("%w: every engine needs a name", ErrConfig)
	}
	if strings.ContainsFunc(c.Name, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }) {
		// The name is shown to players, in Discord, a terminal and the log.
		return fmt.Errorf("%w: the engine name %q has a control or format character; players read it", ErrConfig, c.Name)
	}
	if c.Command == "" {
		return bad("command is missing (the path of the engine program)")
	}
	switch c.Protocol {
	case UCI:
		if c.Select == "" {
			c.Select = "UCI_Variant"
		}
	case XBoard:
		if c.Select == "" {
			c.Select = "variant"
		}
	default:
		return bad("protocol must be uci or xboard, not %q", c.Protocol)
	}
	keys := variants.Registry().Keys()
	if len(c.Variants) == 0 {
		return bad("variants is empty: map each game it plays (%s) to the engine's own variant name", strings.Join(keys, ", "))
	}
	for _, k := range slices.Sorted(maps.Keys(c.Variants)) {
		name := c.Variants[k]
		if !slices.Contains(keys, k) {
			return bad("variants: %q is not one of Missive's games (%s); the key is Missive's name of the game, the value the engine's", k, strings.Join(keys, ", "))
		}
		if strings.TrimSpace(name) == "" {
			return bad("variants: %s has no engine variant name", k)
		}
	}
	for k := range c.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return bad("env has a bad variable name %q", k)
		}
	}
	if strings.TrimSpace(c.Memory) == "" {
		c.Memory = DefaultMemory
	}
	limit, err := parseMemory(c.Memory)
	if err != nil {
		return bad("memory: %v", err)
	}
	if err := hashFits(c.Options, limit); err != nil {
		return bad("%v", err)
	}
	if c.Think <= 0 {
		c.Think = 2 * time.Second
	}
	if c.Timeout <= 0 {
		c.Timeout = 10 * time.Second
	}
	if c.Max <= 0 {
		c.Max = 2
	}
	return nil
}

// File is the engines section of a configuration file.
type File struct {
	Engines []Config `yaml:"engines"`
}

// Load reads and validates the engines of a YAML file.
func Load(path string) ([]Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("external: %w", err)
	}
	return Parse(data)
}

// Parse reads and validates engines from YAML text.
func Parse(data []byte) ([]Config, error) {
	var f File
	if err := yaml.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	seen := map[string]bool{}
	for i := range f.Engines {
		if err := f.Engines[i].Validate(); err != nil {
			return nil, err
		}
		if seen[f.Engines[i].Name] {
			return nil, fmt.Errorf("%w: two engines are named %q", ErrConfig, f.Engines[i].Name)
		}
		seen[f.Engines[i].Name] = true
	}
	return f.Engines, nil
}

// hashFits refuses a UCI Hash option (in MiB) that leaves the engine nothing of its
// memory limit (0: none) for the rest of what it holds.
func hashFits(options map[string]string, limit int64) error {
	for k, v := range options {
		mib, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if !strings.EqualFold(k, "Hash") || err != nil || limit == 0 || mib<<20 < limit {
			continue
		}
		return fmt.Errorf("its %s option (%d MiB) does not fit in its memory limit of %s: lower %s, or raise memory", k, mib, formatBytes(limit), k)
	}
	return nil
}
