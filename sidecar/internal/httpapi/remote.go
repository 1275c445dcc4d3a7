package httpapi

// Key queries for a partition another instance hosts: the key's metadata
// from the group's host maps (streams.KafkaStreams.MetadataForKey), and the
// answer Config.Remote chooses: forward the query to the instance that
// hosts the key and relay its answer, redirect the client to it, or 503
// with the metadata.

import (
	"bytes"
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/assignment"
	"github.com/stoatflow/stoatflow/streams"
)

// Headers of the StoatFlow HTTP API.
const (
	// InstanceHeader is on every answer of a StoatFlow HTTP API: the
	// application.server of the instance that answered ("unset" without
	// one). An answer without it did not come from StoatFlow: a Kafka
	// Streams instance's own endpoint, say, in a group of both.
	InstanceHeader = "X-StoatFlow-Instance"
	// ForwardedHeader marks a query one instance forwarded to another,
	// with the forwarding instance's application.server: the instance it
	// lands on answers it from its own stores and never forwards it again.
	// A relayed answer carries it too.
	ForwardedHeader = "X-StoatFlow-Forwarded-By"
)

// DefaultRemoteTimeout is the default of Config.RemoteTimeout
// (stoatflow.query.remote.timeout-ms).
const DefaultRemoteTimeout = 5 * time.Second

// maxRelayBytes bounds the answer of a forwarded query: key routes return
// one entry or a listing bounded by the remote's own limit.
const maxRelayBytes = 16 << 20

// metadataSource is an Instance that knows the group's host maps;
// *streams.KafkaStreams is one. Without it a key whose partition is not
// hosted here answers 503 with its partition only.
type metadataSource interface {
	MetadataForKey(store string, key []byte) (streams.KeyQueryMetadata, error)
	AllMetadata() []streams.StreamsMetadata
}

// remoteKey is a key query for a partition another instance hosts as
// active: fail answers it as Config.Remote says.
type remoteKey struct {
	q  *query
	md streams.KeyQueryMetadata
}

func (e *remoteKey) Error() string {
	return fmt.Sprintf("store %s: the key's partition %d is hosted by %s", e.q.name, e.md.Partition, e.md.ActiveHost)
}

// newRemoteClient is the client that forwards queries: it follows no
// redirect and, when this server serves HTTPS, trusts the system's roots
// and this server's own certificate (instances sharing one certificate or
// its CA).
func newRemoteClient(cfg Config) (*http.Client, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.IdleConnTimeout = 30 * time.Second
	if cfg.TLSCertFile != "" {
		pool, err := x509.SystemCertPool()
		if err != nil {
			pool = x509.NewCertPool()
		}
		b, err := os.ReadFile(cfg.TLSCertFile)
		if err != nil {
			return nil, fmt.Errorf("httpapi: the certificate the forwarding client trusts: %w", err)
		}
		pool.AppendCertsFromPEM(b)
		tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	return &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}, nil
}

// selfName is this instance's name in InstanceHeader and ForwardedHeader.
func (s *Server) selfName() string {
	switch {
	case s.self != nil:
		return s.self.String()
	case s.cfg.ApplicationServer != "":
		return s.cfg.ApplicationServer
	}
	return "unset"
}

// parseSelf parses application.server, nil when unset or unparsable (the
// runtime refuses an unparsable one before any query).
func parseSelf(endpoint string) *streams.HostInfo {
	h, err := assignment.ParseHostInfo(endpoint)
	if err != nil || h == nil {
		return nil
	}
	out := streams.HostInfo(*h)
	return &out
}

// routeKey picks the local store partition a key lives in, from the key's
// metadata: the local partition when it is open here, else the reason it
// is not, or the remote instance that hosts it.
func (q *query) routeKey(in Instance, local []streams.LocalStore, md streams.KeyQueryMetadata) ([]streams.LocalStore, error) {
	if md.Partition >= 0 {
		for _, ls := range local {
			if ls.Partition == md.Partition {
				return []streams.LocalStore{ls}, nil
			}
		}
	}
	st := in.State()
	switch {
	case !md.Available():
		msg := "no instance is known to host the key's partition"
		if st != streams.Running {
			msg = "the instance is " + st.String() + " and has no assignment yet"
		}
		return nil, q.unavailable(in, msg+"; retry", &md)
	case q.s.self != nil && md.ActiveHost == *q.s.self:
		// The host maps are as old as the last rebalance: they may name
		// this instance before its task has restored, or after it left.
		return nil, q.unavailable(in, "the group's last assignment names this instance as the key's active host, "+
			"but the store partition is not open here (it is restoring, or the assignment changed since); retry", &md)
	}
	return nil, &remoteKey{q: q, md: md}
}

// keyMetadataFields are a key's metadata as the JSON answers give it.
func keyMetadataFields(md streams.KeyQueryMetadata) map[string]any {
	var active any
	if md.Available() {
		active = md.ActiveHost.String()
	}
	standby := make([]string, 0, len(md.StandbyHosts))
	for _, h := range md.StandbyHosts {
		standby = append(standby, h.String())
	}
	return map[string]any{"partition": md.Partition, "activeHost": active, "standbyHosts": standby}
}

// unavailable is a 503 for a key with metadata md (nil when unknown).
func (q *query) unavailable(in Instance, msg string, md *streams.KeyQueryMetadata) *apiError {
	e := errorf(http.StatusServiceUnavailable, "store %s is not queryable here: %s", q.name, msg)
	e.extra = map[string]any{"store": q.name, "applicationServer": q.s.cfg.ApplicationServer}
	if in != nil {
		e.extra["state"] = in.State().String()
	}
	if md != nil {
		for k, v := range keyMetadataFields(*md) {
			e.extra[k] = v
		}
	}
	return e
}

// remote answers a key query for a partition rk's active host holds:
// once forwarded already, 503; otherwise as Config.Remote says.
func (s *Server) remote(w http.ResponseWriter, r *http.Request, rk *remoteKey) {
	in := s.ins.get()
	host := rk.md.ActiveHost.String()
	if by := r.Header.Get(ForwardedHeader); by != "" {
		s.fail(w, r, rk.q.unavailable(in, fmt.Sprintf("the key's partition is hosted by %s, and this query was already forwarded by %s: "+
			"a query is forwarded once (the instances' host maps disagree while a rebalance goes on); retry", host, by), &rk.md))
		return
	}
	switch s.cfg.Remote {
	case compat.QueryNone:
		s.fail(w, r, rk.q.unavailable(in, "the key's partition is hosted by "+host+" (stoatflow.query.remote=none); ask it", &rk.md))
	case compat.QueryRedirect:
		target := s.remoteURL(r, host, rk.q)
		w.Header().Set("Location", target)
		body := map[string]any{"error": "the key's partition is hosted by " + host, "location": target, "store": rk.q.name}
		for k, v := range keyMetadataFields(rk.md) {
			body[k] = v
		}
		writeJSON(w, http.StatusTemporaryRedirect, body)
	default:
		s.forward(w, r, rk, host)
	}
}

// remoteURL is the query's URL on host: the same path and parameters, with
// the isolation level this query resolved to, so that the remote instance
// reads at it whatever its own default.
func (s *Server) remoteURL(r *http.Request, host string, q *query) string {
	params := r.URL.Query()
	params.Set("isolation", q.iso.String())
	scheme := "http"
	if s.cfg.TLSCertFile != "" {
		scheme = "https"
	}
	u := url.URL{Scheme: scheme, Host: host, Path: r.URL.Path, RawPath: r.URL.RawPath, RawQuery: params.Encode()}
	return u.String()
}

// forward asks host, the key's active host, and relays its answer with
// the name of the instance that answered. A host that does not answer in
// time is a 503 with the key's metadata; one whose answer lacks
// InstanceHeader is not a StoatFlow HTTP API: 502.
func (s *Server) forward(w http.ResponseWriter, r *http.Request, rk *remoteKey, host string) {
	in := s.ins.get()
	timeout := cmp.Or(s.cfg.RemoteTimeout, DefaultRemoteTimeout)
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.remoteURL(r, host, rk.q), nil)
	if err != nil {
		s.fail(w, r, fmt.Errorf("httpapi: forwarding to %s: %w", host, err))
		return
	}
	req.Header.Set(ForwardedHeader, s.selfName())
	req.Header.Set("Accept", "application/json")
	if auth := r.Header.Get("Authorization"); auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := s.client.Do(req)
	var body []byte
	if err == nil {
		defer resp.Body.Close()
		body, err = io.ReadAll(io.LimitReader(resp.Body, maxRelayBytes+1))
	}
	if err != nil {
		why := err.Error()
		if errors.Is(err, context.DeadlineExceeded) {
			why = "no answer within " + timeout.String() + " (stoatflow.query.remote.timeout-ms)"
		}
		s.fail(w, r, rk.q.unavailable(in, fmt.Sprintf("the key's partition is hosted by %s, which did not answer: %s; retry", host, why), &rk.md))
		return
	}
	answered := resp.Header.Values(InstanceHeader)
	if len(answered) == 0 {
		e := errorf(http.StatusBadGateway, "the key's partition is hosted by %s, whose answer (HTTP %d) is not a StoatFlow HTTP API's (no %s header): "+
			"a Kafka Streams instance's own endpoint, say; query it there", host, resp.StatusCode, InstanceHeader)
		e.extra = keyMetadataFields(rk.md)
		e.extra["host"] = host
		s.fail(w, r, e)
		return
	}
	if len(body) > maxRelayBytes {
		s.fail(w, r, errorf(http.StatusBadGateway, "the answer of %s is larger than %d bytes", host, maxRelayBytes))
		return
	}
	for _, h := range []string{"Content-Type", "Cache-Control", "WWW-Authenticate"} {
		if v := resp.Header.Get(h); v != "" {
			w.Header().Set(h, v)
		}
	}
	w.Header().Set(InstanceHeader, answered[0])
	w.Header().Set(ForwardedHeader, s.selfName())
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "application/json" {
		body = withAnsweredBy(body, answered[0])
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(body)
}

// withAnsweredBy adds "answeredBy" to a JSON object answer, keeping every
// other value byte for byte (a count above 2^53 stays exact); any other
// answer is left as it is.
func withAnsweredBy(body []byte, host string) []byte {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil || obj == nil {
		return body
	}
	h, _ := json.Marshal(host)
	obj["answeredBy"] = h
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	if err := enc.Encode(obj); err != nil {
		return body
	}
	return buf.Bytes()
}
