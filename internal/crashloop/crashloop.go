package crashloop

import (
	"bufio"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// Run starts the test binary kills times with env added to the environment, kills
// each child with SIGKILL after it is ready and has worked for between minWork and
// maxWork, and returns how many commands the children reported committed. A child
// that never gets ready, or that writes to standard error, fails t.
func Run(t testing.TB, kills int, env []string, minWork, maxWork time.Duration) (commands int) {
	t.Helper()
	for k := range kills {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), env...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		ready := make(chan struct{})
		done := make(chan int)
		go func() {
			n := 0
			once := sync.OnceFunc(func() { close(ready) })
			defer once()
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				switch sc.Text() {
				case "READY":
					once()
				case "C":
					n++
				}
			}
			done <- n
		}()
		select {
		case <-ready:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatalf("crashloop: child %d never got ready: %s", k, stderr.String())
		}
		time.Sleep(minWork + rand.N(maxWork-minWork+1))
		_ = cmd.Process.Kill() // SIGKILL
		commands += <-done
		_ = cmd.Wait()
		if s := stderr.String(); s != "" {
			t.Fatalf("crashloop: child %d: %s", k, s)
		}
	}
	return commands
}
