package assignment

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// HostInfo is a Kafka Streams instance's application.server endpoint, the
// key of AssignmentInfo's host maps (Kafka's HostInfo).
type HostInfo struct {
	Host string
	Port int32
}

// String returns the endpoint as "host:port", an IPv6 host in brackets
// ("[::1]:8080"), as Kafka's Utils.formatAddress writes it.
func (h HostInfo) String() string {
	port := strconv.Itoa(int(h.Port))
	if strings.Contains(h.Host, ":") {
		return "[" + h.Host + "]:" + port
	}
	return h.Host + ":" + port
}

// Compare orders endpoints by host (Java's string order), then port.
func (h HostInfo) Compare(o HostInfo) int {
	if c := compareJava(h.Host, o.Host); c != 0 {
		return c
	}
	return cmpInt(int(h.Port), int(o.Port))
}

// ErrEndpoint is wrapped by ParseHostInfo's errors.
var ErrEndpoint = errors.New("assignment: invalid endpoint")

// hostPort is Kafka's Utils.HOST_PORT_PATTERN, matched against the whole
// endpoint: an optional scheme, the host (brackets optional), a port.
var hostPort = regexp.MustCompile(`^(?:[0-9a-zA-Z\-%._]*://)?\[?([0-9a-zA-Z\-%._:]*)]?:([0-9]+)$`)

// ParseHostInfo parses an application.server endpoint as Kafka's
// HostInfo.buildFromEndpoint does: nil for a blank endpoint (unset),
// otherwise "host:port", "[ipv6]:port" or "::1:port" (the last colon ends
// the host), optionally after a "scheme://". The port is any decimal int32.
func ParseHostInfo(endpoint string) (*HostInfo, error) {
	if strings.TrimFunc(endpoint, func(r rune) bool { return r <= ' ' }) == "" {
		return nil, nil
	}
	m := hostPort.FindStringSubmatch(endpoint)
	if m == nil {
		return nil, fmt.Errorf("%w: Error parsing host address %s. Expected format host:port", ErrEndpoint, endpoint)
	}
	port, err := strconv.ParseInt(m[2], 10, 32)
	if err != nil {
		return nil, fmt.Errorf("%w: port of %s: %w", ErrEndpoint, endpoint, err)
	}
	return &HostInfo{Host: m[1], Port: int32(port)}, nil
}
