// Package sidecartest builds a sidecar binary and runs it in tests as a user
// runs it: a child process with its own flags and files, its HTTP probes,
// and a SIGTERM that must end it cleanly.
package sidecartest

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Buffer collects a child's output safely across goroutines.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write implements io.Writer.
func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns everything written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Build compiles the main package pkg (a path go build takes, such as "."
// or "../cmd/sidecar") into a temporary directory and returns the binary's
// path. Under the race detector the binary is built with -race too, so the
// child's races fail the test (see Proc.Stop).
func Build(t testing.TB, pkg string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "sidecar")
	args := []string{"build", "-o", bin}
	if raceEnabled {
		args = append(args, "-race")
	}
	out, err := exec.Command("go", append(args, pkg)...).CombinedOutput()
	if err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// FreeAddr returns a 127.0.0.1 address whose port was free a moment ago,
// for stoatflow.http.listen.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// Proc is a running sidecar child process.
type Proc struct {
	cmd  *exec.Cmd
	out  *Buffer
	done chan error
}

// Start starts bin with args, its stdout and stderr collected together. The
// test's cleanup kills the child if it still runs.
func Start(t testing.TB, bin string, args ...string) *Proc {
	t.Helper()
	p := &Proc{cmd: exec.Command(bin, args...), out: &Buffer{}, done: make(chan error, 1)}
	p.cmd.Stdout = p.out
	p.cmd.Stderr = p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// Output returns what the child has written to stdout and stderr so far.
func (p *Proc) Output() string { return p.out.String() }

// Stop sends SIGTERM and waits up to a minute for the child to exit with
// status 0; a report of the race detector in its output fails the test.
func (p *Proc) Stop(t testing.TB) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-p.done:
		if err != nil {
			t.Fatalf("sidecar exited with %v after SIGTERM:\n%s", err, Tail(p.Output(), 40))
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("sidecar did not exit within 60s of SIGTERM:\n%s", Tail(p.Output(), 40))
	}
	if out := p.Output(); strings.Contains(out, "WARNING: DATA RACE") {
		t.Errorf("the race detector fired in the sidecar:\n%s", out[strings.Index(out, "WARNING: DATA RACE"):])
	}
}

// WaitReady waits up to two minutes for GET base/readyz to answer 200 (the
// instance is RUNNING), failing the test if the child exits first.
func (p *Proc) WaitReady(t testing.TB, base string) {
	t.Helper()
	deadline := time.Now().Add(120 * time.Second)
	for time.Now().Before(deadline) {
		if code, _ := Get(t, base+"/readyz"); code == http.StatusOK {
			return
		}
		select {
		case err := <-p.done:
			t.Fatalf("sidecar exited (%v) before it was ready:\n%s", err, Tail(p.Output(), 40))
		case <-time.After(200 * time.Millisecond):
		}
	}
	t.Fatalf("sidecar not ready within 120s:\n%s", Tail(p.Output(), 40))
}

// Get fetches url and returns the status code and body; 0 and nil when the
// request fails (the server is not listening yet).
func Get(t testing.TB, url string) (int, []byte) {
	t.Helper()
	c := http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return 0, nil
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// Tail returns the last n lines of s.
func Tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
