package testcluster

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"
)

// node is one Kafka process, broker and controller in one JVM, with its
// ports, its directory and the proxy in front of its client listener.
type node struct {
	id   int32
	dir  string // server.properties, log4j2.properties, data/, server.log, stdout.log
	java []string

	clientPort     int // the client listener, reached through the proxy
	directPort     int // the client listener the cluster's own tools use, never proxied
	internalPort   int // replication between brokers
	controllerPort int
	proxy          *proxy

	mu struct {
		sync.Mutex
		proc   *process // nil before the first start
		frozen bool     // SIGSTOPped
	}
}

// process is one run of a node's JVM.
type process struct {
	cmd    *exec.Cmd
	out    *os.File
	exited chan struct{}
	err    error // once exited
}

func (n *node) logFile() string    { return filepath.Join(n.dir, "server.log") }
func (n *node) stdoutFile() string { return filepath.Join(n.dir, "stdout.log") }
func (n *node) configFile() string { return filepath.Join(n.dir, "server.properties") }
func (n *node) dataDir() string    { return filepath.Join(n.dir, "data") }

// writeConfig writes the node's server.properties and log4j2.properties.
func (n *node) writeConfig(voters string) error {
	if err := os.MkdirAll(n.dataDir(), 0o755); err != nil {
		return fmt.Errorf("testcluster: node %d: %w", n.id, err)
	}
	if err := os.WriteFile(n.configFile(), []byte(n.serverProperties(voters)), 0o644); err != nil {
		return fmt.Errorf("testcluster: node %d: %w", n.id, err)
	}
	log4j := fmt.Sprintf(`status = error
appender.file.type = File
appender.file.name = FILE
appender.file.fileName = %s
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%%d] %%p %%m (%%c)%%n
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = FILE
logger.kafka.name = kafka
logger.kafka.level = INFO
logger.state.name = state.change.logger
logger.state.level = WARN
logger.controller.name = org.apache.kafka.controller
logger.controller.level = WARN
`, n.logFile())
	if err := os.WriteFile(filepath.Join(n.dir, "log4j2.properties"), []byte(log4j), 0o644); err != nil {
		return fmt.Errorf("testcluster: node %d: %w", n.id, err)
	}
	return nil
}

// serverProperties is the node's configuration: a voter of the
// controller quorum and a broker with four listeners. CLIENT is advertised
// at the proxy's port, so that clients reach the broker only through it;
// DIRECT is advertised as it is, for the cluster's own lookups and for
// test clients that must not be cut with the application's; INTERNAL
// carries replication, so cutting a broker's clients leaves it in the
// cluster, as a network fault between clients and one broker does.
func (n *node) serverProperties(voters string) string {
	return fmt.Sprintf(`process.roles=broker,controller
node.id=%[1]d
controller.quorum.voters=%[2]s
listeners=CLIENT://127.0.0.1:%[3]d,DIRECT://127.0.0.1:%[4]d,INTERNAL://127.0.0.1:%[5]d,CONTROLLER://127.0.0.1:%[6]d
advertised.listeners=CLIENT://127.0.0.1:%[7]d,DIRECT://127.0.0.1:%[4]d,INTERNAL://127.0.0.1:%[5]d
listener.security.protocol.map=CLIENT:PLAINTEXT,DIRECT:PLAINTEXT,INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT
controller.listener.names=CONTROLLER
inter.broker.listener.name=INTERNAL
log.dirs=%[8]s
num.partitions=1
default.replication.factor=3
min.insync.replicas=2
offsets.topic.replication.factor=3
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=3
transaction.state.log.min.isr=2
transaction.state.log.num.partitions=10
share.coordinator.state.topic.replication.factor=3
share.coordinator.state.topic.min.isr=2
auto.create.topics.enable=false
# Leaders stay where faults put them: a preferred-leader election at a
# moment of the broker's choosing would move partitions in the middle of a
# test's measurement.
auto.leader.rebalance.enable=false
group.initial.rebalance.delay.ms=0
# As integration/kafka.sh: a test may set a streams group's session below
# Kafka's 45 s default.
group.streams.min.session.timeout.ms=6000
group.streams.min.heartbeat.interval.ms=1000
transaction.abort.timed.out.transaction.cleanup.interval.ms=1000
log.flush.interval.messages=9223372036854775807
log.retention.check.interval.ms=60000
`, n.id, voters, n.clientPort, n.directPort, n.internalPort, n.controllerPort, n.proxy.port(), n.dataDir())
}

// format writes the node's KRaft storage for the cluster id, unless it
// is there already.
func (n *node) format(ctx context.Context, clusterID string) error {
	if _, err := os.Stat(filepath.Join(n.dataDir(), "meta.properties")); err == nil {
		return nil
	}
	args := append(append([]string(nil), n.java[1:]...), "kafka.tools.StorageTool", "format",
		"--cluster-id", clusterID, "--config", n.configFile(), "--ignore-formatted")
	out, err := exec.CommandContext(ctx, n.java[0], args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("testcluster: node %d: formatting KRaft storage in %s: %w\n%s", n.id, n.dataDir(), err, tailLines(string(out), 20))
	}
	return nil
}

// start launches the node's JVM. The JVM is killed when this process
// exits, however it exits (see spawn).
func (n *node) start() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if p := n.mu.proc; p != nil && !p.done() {
		return fmt.Errorf("testcluster: node %d is already running (pid %d)", n.id, p.cmd.Process.Pid)
	}
	out, err := os.OpenFile(n.stdoutFile(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("testcluster: node %d: %w", n.id, err)
	}
	args := append(append([]string(nil), n.java[1:]...), "kafka.Kafka", n.configFile())
	cmd := exec.Command(n.java[0], args...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := spawn(cmd); err != nil {
		out.Close()
		return fmt.Errorf("testcluster: node %d: starting %s: %w", n.id, n.java[0], err)
	}
	p := &process{cmd: cmd, out: out, exited: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		out.Close()
		close(p.exited)
	}()
	n.mu.proc = p
	n.mu.frozen = false
	return nil
}

func (p *process) done() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// current returns the node's process, nil before its first start.
func (n *node) current() *process {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.mu.proc
}

// alive reports whether the node's JVM runs (a frozen one included).
func (n *node) alive() bool {
	p := n.current()
	return p != nil && !p.done()
}

// waitStarted waits until the node's log, from byte from on, says the
// server started, and fails naming the node and its log if the JVM exits
// first or ctx ends.
func (n *node) waitStarted(ctx context.Context, from int64) error {
	p := n.current()
	if p == nil {
		return fmt.Errorf("testcluster: node %d was never started", n.id)
	}
	for {
		if b, err := readFrom(n.logFile(), from); err == nil && bytes.Contains(b, []byte("Kafka Server started")) {
			return nil
		}
		select {
		case <-p.exited:
			return fmt.Errorf("testcluster: node %d exited during start-up (%v); last lines of %s:\n%s\nand of %s:\n%s",
				n.id, p.err, n.logFile(), tailFile(n.logFile(), 30), n.stdoutFile(), tailFile(n.stdoutFile(), 10))
		case <-ctx.Done():
			return fmt.Errorf("testcluster: node %d not started (%w); last lines of %s:\n%s",
				n.id, ctx.Err(), n.logFile(), tailFile(n.logFile(), 30))
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// logSize is the node's log's current size, where a restart's readiness
// check starts reading.
func (n *node) logSize() int64 {
	fi, err := os.Stat(n.logFile())
	if err != nil {
		return 0
	}
	return fi.Size()
}

// signal sends sig to the node's JVM.
func (n *node) signal(sig syscall.Signal) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	p := n.mu.proc
	if p == nil || p.done() {
		return fmt.Errorf("testcluster: node %d is not running", n.id)
	}
	if err := p.cmd.Process.Signal(sig); err != nil {
		return fmt.Errorf("testcluster: node %d: %v: %w", n.id, sig, err)
	}
	switch sig {
	case syscall.SIGSTOP:
		n.mu.frozen = true
	case syscall.SIGCONT:
		n.mu.frozen = false
	}
	return nil
}

// frozen reports whether the node's JVM was stopped with SIGSTOP.
func (n *node) frozen() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.mu.frozen && n.mu.proc != nil && !n.mu.proc.done()
}

// kill ends the JVM with SIGKILL and waits for it.
func (n *node) kill() error {
	p := n.current()
	if p == nil || p.done() {
		return fmt.Errorf("testcluster: node %d is not running", n.id)
	}
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.exited
	return nil
}

// shutdown stops the JVM with SIGTERM (a controlled shutdown), and with
// SIGKILL when it has not exited by ctx's end.
func (n *node) shutdown(ctx context.Context) error {
	p := n.current()
	if p == nil || p.done() {
		return nil
	}
	if n.frozen() {
		_ = n.signal(syscall.SIGCONT)
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
		return nil
	case <-ctx.Done():
		_ = p.cmd.Process.Signal(syscall.SIGKILL)
		<-p.exited
		return fmt.Errorf("testcluster: node %d did not stop after SIGTERM (%w); killed it", n.id, ctx.Err())
	}
}

// spawn starts cmd from one OS thread that lives as long as the process.
// The kernel sends a child its parent-death signal (Pdeathsig) when the
// thread that started it exits, not the process; Go may end a thread
// while the process goes on, so the JVMs are started from a thread that
// never ends, and die with this process and only then.
func spawn(cmd *exec.Cmd) error {
	spawner.once.Do(func() {
		spawner.reqs = make(chan spawnReq)
		go func() {
			runtime.LockOSThread()
			for r := range spawner.reqs {
				r.done <- r.cmd.Start()
			}
		}()
	})
	done := make(chan error, 1)
	spawner.reqs <- spawnReq{cmd: cmd, done: done}
	return <-done
}

type spawnReq struct {
	cmd  *exec.Cmd
	done chan error
}

var spawner struct {
	once sync.Once
	reqs chan spawnReq
}

func readFrom(path string, from int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return nil, err
	}
	return io.ReadAll(f)
}

func tailFile(path string, lines int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "(" + err.Error() + ")"
	}
	return tailLines(string(b), lines)
}

func tailLines(s string, lines int) string {
	parts := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(parts) > lines {
		parts = parts[len(parts)-lines:]
	}
	return strings.Join(parts, "\n")
}
