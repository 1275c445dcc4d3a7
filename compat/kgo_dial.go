package compat

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"strconv"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// dialSpec is how a client opens broker connections. franz-go's own dialer
// covers the timeout and TLS; socket buffer sizes need a dialer of StoatFlow's,
// which then does the TLS handshake itself.
type dialSpec struct {
	timeout  time.Duration
	rcv, snd int // socket buffer bytes; 0 leaves the operating system's
	tls      *tlsSpec
}

func (d *dialSpec) custom() bool { return d.rcv > 0 || d.snd > 0 }

// socketBuffer returns a user's buffer size; -1 (and no value) leave the
// operating system's autotuned default, as Go and the Java client's -1 do.
func (k *kgoClient) socketBuffer(key string) (int, string) {
	s, ok := k.user(key)
	if !ok {
		return 0, ""
	}
	n, _ := strconv.Atoi(s.value)
	if n <= 0 {
		return 0, ""
	}
	return n, s.from
}

// dial adds the connection options: timeout, socket buffers and TLS.
func (k *kgoClient) dial() {
	d := &dialSpec{tls: k.tlsSpec}
	timeout := k.setting("socket.connection.setup.timeout.ms", "10000")
	d.timeout = ms(timeout.value)
	rcvFrom, sndFrom := "", ""
	d.rcv, rcvFrom = k.socketBuffer("receive.buffer.bytes")
	d.snd, sndFrom = k.socketBuffer("send.buffer.bytes")
	if timeout.from != fromJava {
		var build func() ([]kgo.Opt, error)
		if !d.custom() {
			build = opt(kgo.DialTimeout(d.timeout))
		}
		k.add("kgo.DialTimeout", d.timeout.String(), timeout.from, build)
	}
	if rcvFrom != "" {
		k.add("socket receive buffer", strconv.Itoa(d.rcv)+" bytes", rcvFrom, nil)
	}
	if sndFrom != "" {
		k.add("socket send buffer", strconv.Itoa(d.snd)+" bytes", sndFrom, nil)
	}
	switch {
	case d.tls != nil && !d.custom():
		k.add("kgo.DialTLSConfig", k.tlsDesc, k.tlsFrom, d.tls.build)
	case d.tls != nil:
		k.add("kgo.Dialer", "TLS: "+k.tlsDesc, k.tlsFrom, d.build)
	case d.custom():
		k.add("kgo.Dialer", "plaintext, with the socket buffers above", fromStoat, d.build)
	}
}

func (d *dialSpec) build() ([]kgo.Opt, error) {
	var tc *tls.Config
	if d.tls != nil {
		c, err := d.tls.config()
		if err != nil {
			return nil, err
		}
		tc = c
	}
	nd := &net.Dialer{Timeout: d.timeout, Control: func(_, _ string, c syscall.RawConn) error {
		return setSocketBuffers(c, d.rcv, d.snd)
	}}
	return []kgo.Opt{kgo.Dialer(func(ctx context.Context, network, host string) (net.Conn, error) {
		if tc == nil {
			return nd.DialContext(ctx, network, host)
		}
		c := tc.Clone()
		if c.ServerName == "" {
			server, _, err := net.SplitHostPort(host)
			if err != nil {
				return nil, fmt.Errorf("compat: broker address %s: %w", host, err)
			}
			c.ServerName = server
		}
		return (&tls.Dialer{NetDialer: nd, Config: c}).DialContext(ctx, network, host)
	})}, nil
}
