package oracle

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Debian installs game engines into /usr/games, which is often not on PATH.
var extraDirs = []string{"/usr/games", "/usr/local/games"}

// Find returns the path of the program name, looking on PATH and in /usr/games.
func Find(name string) (string, bool) {
	if p, err := exec.LookPath(name); err == nil {
		return p, true
	}
	for _, d := range extraDirs {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, true
		}
	}
	return "", false
}

// Required reports whether oracle tests must run (CI=true).
func Required() bool { return os.Getenv("CI") == "true" }

// Path returns the path of name for test t; it fails t when CI=true and the program is
// missing, and skips t with a message saying how to install it otherwise.
func Path(t testing.TB, name string) string {
	t.Helper()
	if p, ok := Find(name); ok {
		return p
	}
	if Required() {
		t.Fatalf("%s is required when CI=true but was not found on PATH or in /usr/games; .ci/run installs it", name)
	}
	t.Skipf("%s not installed (apt-get install %s); skipping this oracle test (required when CI=true)", name, name)
	return ""
}
