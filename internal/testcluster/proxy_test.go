package testcluster

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// echoServer answers every line it reads with the same line, until closed.
func echoServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Go(func() {
				defer c.Close()
				_, _ = io.Copy(c, c)
			})
		}
	})
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return ln.Addr().String()
}

func startProxy(t *testing.T, target string) *proxy {
	t.Helper()
	p, err := listenProxy(0)
	if err != nil {
		t.Fatal(err)
	}
	p.serve(target)
	t.Cleanup(p.close)
	return p
}

// roundTrip writes line on c and reads the echo within timeout.
func roundTrip(c net.Conn, r *bufio.Reader, line string, timeout time.Duration) (string, error) {
	_ = c.SetDeadline(time.Now().Add(timeout))
	defer c.SetDeadline(time.Time{})
	if _, err := io.WriteString(c, line+"\n"); err != nil {
		return "", err
	}
	got, err := r.ReadString('\n')
	return strings.TrimSuffix(got, "\n"), err
}

func dial(t *testing.T, p *proxy) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", p.addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, bufio.NewReader(c)
}

// refused checks that a new connection through p is reset, at connect
// or at its first round trip, and says how it went otherwise.
func refused(p *proxy) error {
	c, err := net.Dial("tcp", p.addr())
	if err != nil {
		if isReset(err) {
			return nil
		}
		return err
	}
	defer c.Close()
	if _, err := roundTrip(c, bufio.NewReader(c), "anyone", 5*time.Second); !isReset(err) {
		return fmt.Errorf("round trip: %v", err)
	}
	return nil
}

func isReset(err error) bool {
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF) || errors.Is(err, syscall.EPIPE)
}

func TestProxyForwardsBothWays(t *testing.T) {
	p := startProxy(t, echoServer(t))
	c, r := dial(t, p)
	for _, line := range []string{"one", strings.Repeat("x", 100<<10), "three"} {
		got, err := roundTrip(c, r, line, 5*time.Second)
		if err != nil || got != line {
			t.Fatalf("echo of %d bytes through the proxy: got %d bytes, %v", len(line), len(got), err)
		}
	}
}

// TestProxyCutResetsAndRefusesUntilResume: a cut resets the open
// connections and every new one, and Resume lets new ones through.
func TestProxyCutResetsAndRefusesUntilResume(t *testing.T) {
	p := startProxy(t, echoServer(t))
	c, r := dial(t, p)
	if _, err := roundTrip(c, r, "before", 5*time.Second); err != nil {
		t.Fatal(err)
	}
	p.setMode(cut)
	if _, err := roundTrip(c, r, "during", 5*time.Second); !isReset(err) {
		t.Fatalf("a connection open at the cut: %v, want it reset or closed", err)
	}
	if err := refused(p); err != nil {
		t.Fatalf("a connection made during the cut: %v, want it reset", err)
	}
	if n := p.connections(); n != 0 {
		t.Fatalf("the cut proxy holds %d connections, want 0", n)
	}
	p.setMode(forwarding)
	c3, r3 := dial(t, p)
	if got, err := roundTrip(c3, r3, "after", 5*time.Second); err != nil || got != "after" {
		t.Fatalf("after Resume: %q, %v", got, err)
	}
}

// TestProxyStallHoldsBytesUntilResume: a stall keeps connections open,
// moves nothing either way, and delivers what it held once resumed.
func TestProxyStallHoldsBytesUntilResume(t *testing.T) {
	p := startProxy(t, echoServer(t))
	c, r := dial(t, p)
	if _, err := roundTrip(c, r, "before", 5*time.Second); err != nil {
		t.Fatal(err)
	}
	p.setMode(stalled)
	_, err := roundTrip(c, r, "held", 500*time.Millisecond)
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a round trip through a stalled proxy: %v, want no answer", err)
	}
	// A connection made during the stall is accepted and moves nothing.
	c2, r2 := dial(t, p)
	if _, err := roundTrip(c2, r2, "new", 300*time.Millisecond); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a connection made during the stall: %v, want no answer", err)
	}
	p.setMode(forwarding)
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if got, err := r.ReadString('\n'); err != nil || got != "held\n" {
		t.Fatalf("after Resume the held line came back as %q, %v", got, err)
	}
	_ = c2.SetReadDeadline(time.Now().Add(5 * time.Second))
	if got, err := r2.ReadString('\n'); err != nil || got != "new\n" {
		t.Fatalf("after Resume the new connection's line came back as %q, %v", got, err)
	}
}

// TestProxyStallThenCut: a cut during a stall resets the stalled
// connections rather than leaving them waiting.
func TestProxyStallThenCut(t *testing.T) {
	p := startProxy(t, echoServer(t))
	c, r := dial(t, p)
	if _, err := roundTrip(c, r, "before", 5*time.Second); err != nil {
		t.Fatal(err)
	}
	p.setMode(stalled)
	if _, err := io.WriteString(c, "held\n"); err != nil {
		t.Fatal(err)
	}
	p.setMode(cut)
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := r.ReadString('\n'); !isReset(err) {
		t.Fatalf("a stalled connection after the cut: %v, want it reset", err)
	}
}

// TestProxyToADeadTargetResetsClients: with the broker down, a client's
// connection is reset at once, as a refused one would be.
func TestProxyToADeadTargetResetsClients(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close()
	p := startProxy(t, dead)
	if err := refused(p); err != nil {
		t.Fatalf("through a proxy to a dead broker: %v, want the connection reset", err)
	}
}

func TestCloseLeavesNoConnection(t *testing.T) {
	p := startProxy(t, echoServer(t))
	c, r := dial(t, p)
	if _, err := roundTrip(c, r, "x", 5*time.Second); err != nil {
		t.Fatal(err)
	}
	p.setMode(stalled)
	p.close()
	p.close()
	if _, err := roundTrip(c, r, "y", 5*time.Second); err == nil {
		t.Fatal("a connection survived the proxy's close")
	}
	if _, err := net.DialTimeout("tcp", p.addr(), time.Second); err == nil {
		t.Fatal("the closed proxy still accepts connections")
	}
}

func TestServerPropertiesAdvertiseTheProxy(t *testing.T) {
	p, err := listenProxy(0)
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	n := &node{id: 2, dir: "/x/node-2", proxy: p, clientPort: 1001, directPort: 1002, internalPort: 1003, controllerPort: 1004}
	props := n.serverProperties("1@127.0.0.1:9,2@127.0.0.1:1004,3@127.0.0.1:8")
	for _, want := range []string{
		"node.id=2\n",
		"listeners=CLIENT://127.0.0.1:1001,DIRECT://127.0.0.1:1002,INTERNAL://127.0.0.1:1003,CONTROLLER://127.0.0.1:1004\n",
		"advertised.listeners=CLIENT://" + p.addr() + ",DIRECT://127.0.0.1:1002,INTERNAL://127.0.0.1:1003\n",
		"inter.broker.listener.name=INTERNAL\n",
		"controller.quorum.voters=1@127.0.0.1:9,2@127.0.0.1:1004,3@127.0.0.1:8\n",
		"min.insync.replicas=2\n", "default.replication.factor=3\n",
		"offsets.topic.replication.factor=3\n", "transaction.state.log.replication.factor=3\n", "transaction.state.log.min.isr=2\n",
		"group.initial.rebalance.delay.ms=0\n", "group.streams.min.session.timeout.ms=6000\n",
		"group.streams.min.heartbeat.interval.ms=1000\n", "transaction.abort.timed.out.transaction.cleanup.interval.ms=1000\n",
		"auto.create.topics.enable=false\n", "log.dirs=/x/node-2/data\n",
	} {
		if !strings.Contains(props, want) {
			t.Errorf("server.properties lacks %q:\n%s", want, props)
		}
	}
}

func TestClusterIDIsKafkas(t *testing.T) {
	for range 200 {
		id, err := newClusterID()
		if err != nil {
			t.Fatal(err)
		}
		if len(id) != 22 || id[0] == '-' || strings.ContainsAny(id, "+/=") {
			t.Fatalf("cluster id %q: want 22 characters of unpadded URL-safe base64, not starting with '-'", id)
		}
	}
}

// TestFreePortsAreBelowTheEphemeralRange: a node binds its ports long
// after they are drawn, and again at each restart; a port of the
// ephemeral range could meanwhile be taken as an outgoing connection's
// local port (a node failed to start so: "Socket server failed to bind
// ... Address already in use").
func TestFreePortsAreBelowTheEphemeralRange(t *testing.T) {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		t.Skip("no /proc/sys/net/ipv4/ip_local_port_range:", err)
	}
	var lo, hi int
	if _, err := fmt.Sscan(string(b), &lo, &hi); err != nil {
		t.Fatal(err)
	}
	ports, err := freePorts(16)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, p := range ports {
		if p >= lo || p < 1024 || seen[p] {
			t.Fatalf("ports %v: %d is a duplicate or outside [1024, %d)", ports, p, lo)
		}
		seen[p] = true
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err != nil {
			t.Fatalf("port %d, drawn free, cannot be bound: %v", p, err)
		}
		ln.Close()
	}
}
