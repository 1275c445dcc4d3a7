package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// clockTicks is USER_HZ, the unit of utime and stime in /proc/<pid>/stat:
// 100 on every Linux architecture Go supports.
const clockTicks = 100

// proc is one engine or ceiling running as a child process. Its stdout is
// a line protocol (RUNNING, STATE <state>, RESTORE-..., COMMITS ...,
// CLOSED); its stderr is kept as a tail for error messages.
type proc struct {
	name    string
	cmd     *exec.Cmd
	started time.Time
	stderr  *tailBuffer

	mu     sync.Mutex
	lines  []stamped
	change chan struct{}

	exited chan struct{}
	err    error
}

// stamped is a protocol line with the time the harness read it.
type stamped struct {
	at   time.Time
	text string
}

func startProc(name string, cmd *exec.Cmd) (*proc, error) {
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &proc{name: name, cmd: cmd, stderr: &tailBuffer{max: 64 << 10}, change: make(chan struct{}), exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	p.started = time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("bench: starting %s: %w", name, err)
	}
	var reader sync.WaitGroup
	reader.Add(1)
	go func() {
		defer reader.Done()
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			p.mu.Lock()
			p.lines = append(p.lines, stamped{time.Now(), sc.Text()})
			close(p.change)
			p.change = make(chan struct{})
			p.mu.Unlock()
		}
	}()
	go func() {
		reader.Wait()
		p.err = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// waitLine waits for the first line for which match is true and returns it.
func (p *proc) waitLine(ctx context.Context, match func(string) bool) (stamped, error) {
	for {
		p.mu.Lock()
		for _, l := range p.lines {
			if match(l.text) {
				p.mu.Unlock()
				return l, nil
			}
		}
		ch := p.change
		p.mu.Unlock()
		select {
		case <-ch:
		case <-p.exited:
			// The reader may have appended the line just before exiting.
			p.mu.Lock()
			for _, l := range p.lines {
				if match(l.text) {
					p.mu.Unlock()
					return l, nil
				}
			}
			p.mu.Unlock()
			return stamped{}, fmt.Errorf("bench: %s exited (%v):\n%s", p.name, p.err, p.stderr.String())
		case <-ctx.Done():
			return stamped{}, fmt.Errorf("bench: %s: %w:\n%s", p.name, ctx.Err(), p.stderr.String())
		}
	}
}

// waitRunning waits until the child reports RUNNING (StoatFlow children
// and ceilings) or STATE RUNNING (Kafka Streams).
func (p *proc) waitRunning(ctx context.Context) (time.Time, error) {
	l, err := p.waitLine(ctx, func(s string) bool { return s == "RUNNING" || s == "STATE RUNNING" })
	return l.at, err
}

// linesWith returns the protocol lines starting with prefix.
func (p *proc) linesWith(prefix string) []stamped {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []stamped
	for _, l := range p.lines {
		if strings.HasPrefix(l.text, prefix) {
			out = append(out, l)
		}
	}
	return out
}

func (p *proc) alive() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// cpu returns the user+system CPU time the process has used so far, every
// thread included.
func (p *proc) cpu() (time.Duration, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) may hold spaces; fields after it are fixed.
	s := string(raw)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("bench: unexpected /proc stat %q", s)
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("bench: short /proc stat %q", s)
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64) // field 14, utime
	st, err2 := strconv.ParseInt(f[12], 10, 64) // field 15, stime
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("bench: parsing /proc stat %q", s)
	}
	return time.Duration(ut+st) * time.Second / clockTicks, nil
}

// peakRSS returns the process's high-water resident set (VmHWM) in bytes.
func (p *proc) peakRSS() (int64, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("bench: no VmHWM in /proc/%d/status", p.cmd.Process.Pid)
}

// stop sends SIGTERM and waits for the process; after timeout it kills it.
func (p *proc) stop(timeout time.Duration) error {
	if !p.alive() {
		return nil
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
		return nil
	case <-time.After(timeout):
		p.kill()
		return fmt.Errorf("bench: %s did not stop within %v of SIGTERM; killed", p.name, timeout)
	}
}

// kill ends the process with SIGKILL and waits for it.
func (p *proc) kill() {
	if p.alive() {
		_ = p.cmd.Process.Kill()
	}
	<-p.exited
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (b *tailBuffer) Write(q []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, q...)
	if len(b.buf) > b.max {
		b.buf = append(b.buf[:0], b.buf[len(b.buf)-b.max:]...)
	}
	return len(q), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	lines := strings.Split(strings.TrimRight(string(b.buf), "\n"), "\n")
	if len(lines) > 30 {
		lines = lines[len(lines)-30:]
	}
	return strings.Join(lines, "\n")
}
