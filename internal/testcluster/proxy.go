package testcluster

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"time"
)

// proxyMode is what a proxy does with its connections.
type proxyMode int

const (
	// forwarding: bytes flow both ways.
	forwarding proxyMode = iota
	// cut: every connection is reset and new ones are reset as soon as
	// they are accepted, as a host whose port is firewalled with a TCP
	// reset: clients learn at once that the broker is unreachable.
	cut
	// stalled: connections stay open and new ones are accepted, but no
	// byte moves either way, as on a path that drops every packet:
	// clients learn only from their own timeouts.
	stalled
)

func (m proxyMode) String() string {
	switch m {
	case cut:
		return "cut"
	case stalled:
		return "stalled"
	default:
		return "forwarding"
	}
}

// proxy forwards a loopback port to one broker's client listener. Brokers
// advertise the proxy's port to clients, so every client connection to
// that broker goes through it and can be cut or stalled.
type proxy struct {
	ln     net.Listener
	target string // the broker's real client listener

	mu struct {
		sync.Mutex
		mode   proxyMode
		open   chan struct{} // closed while forwarding; a new one while stalled
		pairs  map[*pair]struct{}
		closed bool
	}
	wg sync.WaitGroup // the accept loop and every pair's copy loops
}

// pair is one client connection and the proxy's connection to the broker.
type pair struct {
	client, broker net.Conn
	once           sync.Once
}

// close closes both ends; with reset, the client's end is reset (RST)
// rather than closed in order.
func (p *pair) close(reset bool) {
	p.once.Do(func() {
		if reset {
			resetConn(p.client)
		} else {
			p.client.Close()
		}
		if p.broker != nil {
			p.broker.Close()
		}
	})
}

func resetConn(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	c.Close()
}

// listenProxy opens the proxy's port on 127.0.0.1 (port 0: any free one);
// it forwards nothing until serve.
func listenProxy(port int) (*proxy, error) {
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return nil, fmt.Errorf("testcluster: proxy listener on 127.0.0.1:%d: %w", port, err)
	}
	p := &proxy{ln: ln}
	p.mu.open = make(chan struct{})
	close(p.mu.open)
	p.mu.pairs = map[*pair]struct{}{}
	return p, nil
}

// addr is the proxy's address, the one its broker advertises.
func (p *proxy) addr() string { return p.ln.Addr().String() }

// port is the proxy's port.
func (p *proxy) port() int { return p.ln.Addr().(*net.TCPAddr).Port }

// serve starts forwarding accepted connections to target.
func (p *proxy) serve(target string) {
	p.target = target
	p.wg.Add(1)
	go p.acceptLoop()
}

func (p *proxy) acceptLoop() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			// A transient accept error (too many open files): back off
			// rather than spin.
			time.Sleep(10 * time.Millisecond)
			continue
		}
		p.mu.Lock()
		if p.mu.closed || p.mu.mode == cut {
			p.mu.Unlock()
			resetConn(c)
			continue
		}
		pr := &pair{client: c}
		p.mu.pairs[pr] = struct{}{}
		p.wg.Add(1)
		p.mu.Unlock()
		go p.run(pr)
	}
}

// run dials the broker for one client connection and copies both ways
// until either side closes or the proxy cuts it.
func (p *proxy) run(pr *pair) {
	defer p.wg.Done()
	defer func() {
		p.mu.Lock()
		delete(p.mu.pairs, pr)
		p.mu.Unlock()
	}()
	b, err := net.DialTimeout("tcp", p.target, 5*time.Second)
	if err != nil {
		// The broker is down: the client sees its connection reset, as
		// it would see a refused one without the proxy.
		pr.close(true)
		return
	}
	p.mu.Lock()
	pr.broker = b
	gone := p.mu.closed || p.mu.mode == cut
	p.mu.Unlock()
	if gone {
		pr.close(true)
		return
	}
	var wg sync.WaitGroup
	wg.Go(func() { p.copy(pr, b, pr.client) })
	wg.Go(func() { p.copy(pr, pr.client, b) })
	wg.Wait()
}

// copy moves bytes from src to dst, waiting at the gate before each read
// and each write, so that a stall holds what was read and reads no more.
func (p *proxy) copy(pr *pair, dst, src net.Conn) {
	defer pr.close(false)
	buf := make([]byte, 32<<10)
	for {
		if !p.gate(pr) {
			return
		}
		n, err := src.Read(buf)
		if n > 0 {
			if !p.gate(pr) {
				return
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// gate returns true once the proxy forwards, false when pr was cut or the
// proxy closed.
func (p *proxy) gate(pr *pair) bool {
	for {
		p.mu.Lock()
		_, live := p.mu.pairs[pr]
		open := p.mu.open
		closed := p.mu.closed
		p.mu.Unlock()
		if !live || closed {
			return false
		}
		select {
		case <-open:
			return true
		case <-time.After(100 * time.Millisecond):
			// Look again: the pair may have been cut meanwhile.
		}
	}
}

// setMode switches the proxy to m: cut resets every connection, stalled
// closes the gate, forwarding opens it.
func (p *proxy) setMode(m proxyMode) {
	p.mu.Lock()
	defer p.mu.Unlock()
	prev := p.mu.mode
	p.mu.mode = m
	switch m {
	case forwarding:
		if prev == stalled {
			close(p.mu.open)
		}
	case stalled:
		if prev != stalled {
			p.mu.open = make(chan struct{})
		}
	case cut:
		if prev == stalled {
			close(p.mu.open)
		}
		for pr := range p.mu.pairs {
			delete(p.mu.pairs, pr)
			pr.close(true)
		}
	}
}

// connections counts the client connections the proxy holds.
func (p *proxy) connections() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.mu.pairs)
}

// close stops accepting, closes every connection and waits for the
// proxy's goroutines. It is safe to call twice.
func (p *proxy) close() {
	p.mu.Lock()
	if p.mu.closed {
		p.mu.Unlock()
		p.wg.Wait()
		return
	}
	p.mu.closed = true
	if p.mu.mode == stalled {
		close(p.mu.open)
	}
	for pr := range p.mu.pairs {
		delete(p.mu.pairs, pr)
		pr.close(false)
	}
	p.mu.Unlock()
	p.ln.Close()
	p.wg.Wait()
}
