// Package httpapi is the sidecar's HTTP server: Prometheus metrics, health
// and readiness probes, and interactive queries over the stores this
// instance hosts, at either isolation level.
//
// Routes (every response but /metrics is JSON):
//
//	GET /healthz                               the process is alive
//	GET /readyz                                200 only in state RUNNING (restored, processing); says why a broker cannot be reached
//	GET /metrics                               Prometheus text
//	GET /metadata                              this instance: state, application.server, hosted stores; every instance of the application
//	GET /stores/{store}/metadata/{key}         the key's partition, active and standby hosts, whether it is hosted here
//	GET /stores/{store}/keys/{key}             key-value get
//	GET /stores/{store}/range?from=&to=        key-value range (bounds inclusive, optional)
//	GET /stores/{store}/prefix/{prefix}        key-value prefix scan
//	GET /stores/{store}/all                    every entry
//	GET /stores/{store}/windows/{key}?from=&to=          window fetch (window starts, ms)
//	GET /stores/{store}/windows?keyFrom=&keyTo=&from=&to= window fetch over a key range
//	GET /stores/{store}/sessions/{key}?earliestEnd=&latestStart=  session find
//
// Every store route takes isolation=READ_COMMITTED|READ_UNCOMMITTED (default
// the configured level); listing routes take limit (default and ceiling
// Config.MaxResults; a larger one is clamped). A truncated key-value listing
// (all, range, prefix) gives next, a continuation the client passes back as
// after to get the entries past it. Keys in the path and in parameters are
// text, converted to the store's key type (string, integer, floating point,
// boolean) and serialized with the store's key serde; values are
// deserialized with its value serde. A key route's path ending in / (keys/,
// windows/, ...) names the empty key.
//
// A key route (keys, windows/{key}, sessions/{key}, versions/{key}) whose
// key's partition another instance hosts, by the group's host maps, is
// forwarded to that instance's StoatFlow HTTP API and its answer relayed,
// or redirected there, as Config.Remote says (remote.go). Every answer
// carries InstanceHeader; a forwarded query carries ForwardedHeader and is
// never forwarded again.
//
// Status codes: 400 bad parameters, 401 missing or wrong bearer token, 404
// unknown store or key, 307 to the instance that hosts the key (redirect
// mode), 502 when that instance's answer is not a StoatFlow HTTP API's,
// 503 while the store partition is restoring, not hosted here and not
// forwarded, or its host does not answer (with the key's metadata, for
// routing).
package httpapi

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
)

// Instance is what the server reads from the running application;
// *streams.KafkaStreams implements it.
type Instance interface {
	State() streams.State
	LocalStores(name string) []streams.LocalStore
}

// MetricsWriter writes metrics in the Prometheus text format;
// *metrics.Registry implements it.
type MetricsWriter interface {
	WritePrometheus(w io.Writer)
}

// Config configures a Server.
type Config struct {
	// Listen is the host:port to listen on (stoatflow.http.listen).
	Listen string
	// AuthToken, when set, is the bearer token every route but /healthz and
	// /readyz requires (stoatflow.http.auth-token).
	AuthToken string
	// TLSCertFile and TLSKeyFile, when set, serve HTTPS.
	TLSCertFile, TLSKeyFile string
	// Isolation is the level of queries that name none
	// (default.interactive.query.isolation.level).
	Isolation state.IsolationLevel
	// ApplicationServer is this instance's advertised endpoint
	// (application.server), reported by the metadata routes.
	ApplicationServer string
	// ProcessID is the instance's process id, reported by /metadata.
	ProcessID func() string
	// Streams is the running application; nil until it is set with
	// SetInstance (queries answer 503 until then).
	Streams Instance
	// Topology is the application's topology: store kinds and serdes.
	Topology *kstreams.Topology
	// ApplicationID is the application's application.id. The store serdes
	// are called with the store's changelog topic, which it prefixes.
	ApplicationID string
	// DefaultKeySerde and DefaultValueSerde are default.key.serde and
	// default.value.serde (nil when unset).
	DefaultKeySerde, DefaultValueSerde serde.Untyped
	// Partitions returns the number of partitions (tasks) of a store, for
	// the key-to-partition mapping of an Instance without the group's host
	// maps (*streams.KafkaStreams has them). When nil or failing, key
	// lookups search every local partition and the metadata route answers
	// 503.
	Partitions func(ctx context.Context, store string) (int, error)
	// Remote is what a key query does when another instance hosts the
	// key's partition (stoatflow.query.remote; default forward).
	Remote compat.QueryRemote
	// RemoteTimeout bounds a forwarded query
	// (stoatflow.query.remote.timeout-ms; default DefaultRemoteTimeout).
	RemoteTimeout time.Duration
	// RemoteClient forwards queries; nil builds one that follows no
	// redirect and, under TLS, trusts this server's certificate besides
	// the system's roots.
	RemoteClient *http.Client
	// Metrics serves /metrics; nil serves an empty page.
	Metrics MetricsWriter
	// MaxResults bounds the entries one listing returns (default 1000).
	MaxResults int
	// Logger receives server errors (default slog.Default()).
	Logger *slog.Logger
}

// Request and connection bounds. A query is a GET with a short URL: there is
// no reason to accept a body or large headers.
const (
	maxBodyBytes      = 64 << 10
	maxHeaderBytes    = 64 << 10
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 60 * time.Second
	idleTimeout       = 2 * time.Minute
	defaultMaxResults = 1000
)

// Server is the HTTP server. Create it with New, then Listen and Run.
type Server struct {
	cfg Config
	log *slog.Logger
	mux *http.ServeMux
	srv *http.Server
	ln  net.Listener
	ins atomicInstance
	// self is application.server parsed, nil when unset.
	self *streams.HostInfo
	// client forwards key queries to other instances.
	client *http.Client
}

// New checks cfg and builds the server's routes.
func New(cfg Config) (*Server, error) {
	if cfg.Topology == nil {
		return nil, errors.New("httpapi: no topology")
	}
	if cfg.ApplicationID == "" {
		return nil, errors.New("httpapi: no application id")
	}
	if (cfg.TLSCertFile == "") != (cfg.TLSKeyFile == "") {
		return nil, errors.New("httpapi: TLS needs both a certificate and a key file")
	}
	if cfg.MaxResults <= 0 {
		cfg.MaxResults = defaultMaxResults
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	s := &Server{cfg: cfg, log: cfg.Logger, mux: http.NewServeMux(), self: parseSelf(cfg.ApplicationServer), client: cfg.RemoteClient}
	if s.client == nil {
		var err error
		if s.client, err = newRemoteClient(cfg); err != nil {
			return nil, err
		}
	}
	if cfg.Streams != nil {
		s.ins.set(cfg.Streams)
	}
	s.routes()
	s.srv = &http.Server{
		Handler:           s,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(cfg.Logger.Handler(), slog.LevelWarn),
	}
	return s, nil
}

// SetInstance sets the running application the queries read.
func (s *Server) SetInstance(in Instance) { s.ins.set(in) }

// Listen binds the listen address and returns the bound address (useful
// with port 0).
func (s *Server) Listen() (net.Addr, error) {
	ln, err := net.Listen("tcp", s.cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("httpapi: listen on %s (stoatflow.http.listen): %w", s.cfg.Listen, err)
	}
	s.ln = ln
	return ln.Addr(), nil
}

// Close releases the idle connections of the forwarding client; Run does
// too as it returns. It is safe to call twice.
func (s *Server) Close() error {
	s.client.CloseIdleConnections()
	return nil
}

// Run serves on the bound listener until ctx ends, then shuts down,
// waiting up to 5 s for requests in flight.
func (s *Server) Run(ctx context.Context) error {
	if s.ln == nil {
		if _, err := s.Listen(); err != nil {
			return err
		}
	}
	errc := make(chan error, 1)
	defer s.Close()
	go func() {
		var err error
		if s.cfg.TLSCertFile != "" {
			err = s.srv.ServeTLS(s.ln, s.cfg.TLSCertFile, s.cfg.TLSKeyFile)
		} else {
			err = s.srv.Serve(s.ln)
		}
		errc <- err
	}()
	select {
	case err := <-errc:
		return fmt.Errorf("httpapi: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := s.srv.Shutdown(sctx)
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

// ServeHTTP applies the request limits and the bearer token, then routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxBodyBytes)
	w.Header().Set(InstanceHeader, s.selfName())
	if s.cfg.AuthToken != "" && r.URL.Path != "/healthz" && r.URL.Path != "/readyz" && !s.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="stoatflow"`)
		writeError(w, http.StatusUnauthorized, "missing or wrong bearer token (stoatflow.http.auth-token)")
		return
	}
	s.mux.ServeHTTP(w, r)
}

func (s *Server) authorized(r *http.Request) bool {
	h := r.Header.Get("Authorization")
	const prefix = "Bearer "
	if len(h) < len(prefix) || !strings.EqualFold(h[:len(prefix)], prefix) {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(h[len(prefix):]), []byte(s.cfg.AuthToken)) == 1
}

func (s *Server) routes() {
	s.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "alive"})
	})
	s.mux.HandleFunc("GET /readyz", s.readyz)
	s.mux.HandleFunc("GET /metrics", s.metrics)
	s.mux.HandleFunc("GET /metadata", s.instanceMetadata)
	s.mux.HandleFunc("GET /stores/{store}/metadata/{key}", s.keyMetadata)
	s.mux.HandleFunc("GET /stores/{store}/keys/{key}", s.kvGet)
	// A key route's path ending in / names the empty key, which {key}
	// cannot match: the handlers read it as "".
	s.mux.HandleFunc("GET /stores/{store}/keys/{$}", s.kvGet)
	s.mux.HandleFunc("GET /stores/{store}/metadata/{$}", s.keyMetadata)
	s.mux.HandleFunc("GET /stores/{store}/windows/{$}", s.windowFetch)
	s.mux.HandleFunc("GET /stores/{store}/sessions/{$}", s.sessionFind)
	s.mux.HandleFunc("GET /stores/{store}/versions/{$}", s.versions)
	s.mux.HandleFunc("GET /stores/{store}/range", s.kvRange)
	s.mux.HandleFunc("GET /stores/{store}/prefix/{prefix}", s.kvPrefix)
	s.mux.HandleFunc("GET /stores/{store}/all", s.kvAll)
	s.mux.HandleFunc("GET /stores/{store}/windows/{key}", s.windowFetch)
	s.mux.HandleFunc("GET /stores/{store}/windows", s.windowFetchRange)
	s.mux.HandleFunc("GET /stores/{store}/sessions/{key}", s.sessionFind)
	s.mux.HandleFunc("GET /stores/{store}/versions/{key}", s.versions)
}

// brokerReporter is implemented by *streams.KafkaStreams: the broker
// connection failure its clients see now, "" if none.
type brokerReporter interface{ BrokerFailure() string }

// readyz answers the readiness probe for the instance, once there is one.
func (s *Server) readyz(w http.ResponseWriter, _ *http.Request) {
	WriteReadiness(w, s.ins.get())
}

// WriteReadiness answers a readiness probe for in (nil before the instance
// exists): 200 in RUNNING and 503 otherwise, with the state and, while the
// instance's clients cannot reach a broker, why ("broker"): a pod that
// stays unready says so without a look at its log. The run and shadow
// commands' /readyz both answer with it.
func WriteReadiness(w http.ResponseWriter, in interface{ State() streams.State }) {
	st := "STARTING"
	if in != nil {
		st = in.State().String()
	}
	code := http.StatusServiceUnavailable
	if in != nil && in.State() == streams.Running {
		code = http.StatusOK
	}
	body := map[string]string{"state": st}
	if b, ok := in.(brokerReporter); ok {
		if f := b.BrokerFailure(); f != "" {
			body["broker"] = f
		}
	}
	writeJSON(w, code, body)
}

func (s *Server) metrics(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	if s.cfg.Metrics != nil {
		s.cfg.Metrics.WritePrometheus(w)
	}
}

// writeJSON writes v with status code.
func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	_ = enc.Encode(v)
}

// apiError is a failed request: its status and what to tell the client.
type apiError struct {
	code int
	msg  string
	// extra fields for the body (e.g. the key's metadata on a 503).
	extra map[string]any
}

func (e *apiError) Error() string { return e.msg }

func errorf(code int, format string, args ...any) *apiError {
	return &apiError{code: code, msg: fmt.Sprintf(format, args...)}
}

func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]any{"error": msg})
}

// fail writes err: a key another instance hosts as Config.Remote says, an
// *apiError as it says, a closed store as 503 (its task moved or is
// closing), anything else as 500.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apiError
	var rk *remoteKey
	switch {
	case errors.As(err, &rk):
		s.remote(w, r, rk)
	case errors.As(err, &ae):
		body := map[string]any{"error": ae.msg}
		for k, v := range ae.extra {
			body[k] = v
		}
		writeJSON(w, ae.code, body)
	case errors.Is(err, state.ErrClosed):
		writeError(w, http.StatusServiceUnavailable, "the store partition closed during the query (its task moved or is restarting); retry")
	default:
		s.log.Error("interactive query failed", "path", r.URL.Path, "err", err)
		writeError(w, http.StatusInternalServerError, err.Error())
	}
}
