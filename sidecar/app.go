package sidecar

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/kgolog"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/metrics"
	"github.com/stoatflow/stoatflow/sidecar/internal/httpapi"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
)

// runFlags are the flags run and describe share.
type runFlags struct {
	files      stringList
	sets, args pairList
	embedded   bool
	// compare is describe's --compare file ("-" for stdin).
	compare string
}

// parseRunFlags parses the flags of run and describe.
func parseRunFlags(name string, args []string, stderr io.Writer, embeddedFlag bool) (*runFlags, error) {
	fs := newFlagSet(name, stderr)
	f := &runFlags{}
	fs.Var(&f.files, "config", "a .properties `file` (repeatable; later files win)")
	fs.Var(&f.sets, "set", "a `key=value` override (repeatable; wins over files)")
	fs.Var(&f.args, "arg", "a topology argument `name=value`, such as input=my-topic (repeatable)")
	if name == "describe" {
		fs.StringVar(&f.compare, "compare", "", "compare with the Kafka Streams application's describe() text in `file` (- for stdin); exit status 3 when they differ")
	}
	if embeddedFlag {
		fs.BoolVar(&f.embedded, "embedded-broker", false, "run an in-process Kafka broker instead of bootstrap.servers (stoatflow.embedded-broker=true)")
	}
	if err := fs.Parse(args); err != nil {
		return nil, errUsage
	}
	if fs.NArg() > 0 {
		return nil, usageError(fs, "unexpected argument %q; give files with --config", fs.Arg(0))
	}
	if len(f.files) == 0 {
		return nil, usageError(fs, "give at least one --config FILE")
	}
	if f.embedded {
		f.sets = append(f.sets, "stoatflow.embedded-broker=true")
	}
	return f, nil
}

// topologyArgs turns --arg name=value flags into the factory's map.
func (f *runFlags) topologyArgs() map[string]string {
	m := map[string]string{}
	for _, a := range f.args {
		k, v, _ := strings.Cut(a, "=")
		m[k] = v
	}
	return m
}

// buildTopology builds the topology stoatflow.topology names.
func (p *program) buildTopology(cfg *compat.Config, args map[string]string, stderr io.Writer) (*kstreams.Topology, error) {
	if d := p.checkTopology(cfg); d != nil {
		return nil, report(compat.Diagnostics{*d}, stderr)
	}
	topo, err := p.topologies[cfg.Topology](args)
	if err != nil {
		fmt.Fprintf(stderr, "sidecar: building topology %s: %v\n", cfg.Topology, err)
		return nil, errReported
	}
	return topo, nil
}

func runDescribe(ctx context.Context, p *program, args []string, stdout, stderr io.Writer) error {
	f, err := parseRunFlags("describe", args, stderr, false)
	if err != nil {
		return err
	}
	cfg, err := loadConfig(f.files, f.sets, nil, stderr, p.loadOptions()...)
	if err != nil {
		return err
	}
	topo, err := p.buildTopology(cfg, f.topologyArgs(), stderr)
	if err != nil {
		return err
	}
	if topo, err = topo.Optimize(cfg.Optimizations); err != nil {
		fmt.Fprintf(stderr, "sidecar: topology.optimization: %v\n", err)
		return errReported
	}
	if f.compare != "" {
		return compareDescribe(f.compare, cfg.Topology, topo, stdin(ctx), stdout, stderr)
	}
	_, err = io.WriteString(stdout, topo.Describe().String())
	return err
}

// newLogger returns the logger stoatflow.log.format and .level ask for.
func newLogger(cfg *compat.Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == compat.LogJSON {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// logStreamsConfig logs the "StreamsConfig values:" block as Kafka Streams
// logs it at start-up, so it can be diffed against the JVM application's log:
// verbatim in text logs, as one message in JSON logs.
func logStreamsConfig(cfg *compat.Config, log *slog.Logger, w io.Writer) {
	var b bytes.Buffer
	if err := cfg.WriteStreamsConfig(&b); err != nil {
		log.Warn("printing the configuration", "err", err)
		return
	}
	if cfg.LogFormat == compat.LogJSON {
		log.Info(b.String())
		return
	}
	if log.Enabled(context.Background(), slog.LevelInfo) {
		_, _ = w.Write(b.Bytes())
	}
}

func runRun(ctx context.Context, p *program, args []string, _, stderr io.Writer) error {
	f, err := parseRunFlags("run", args, stderr, true)
	if err != nil {
		return err
	}
	// compat requires bootstrap.servers even when the embedded broker
	// replaces it: with the embedded broker on (by flag or by file), the
	// configuration is checked with a placeholder address, and loaded again
	// with the broker's address once it runs.
	sets := f.sets
	cfg0, _ := compat.LoadFiles(f.files, f.sets, nil, p.loadOptions()...)
	embedded := cfg0 != nil && cfg0.EmbeddedBroker
	if embedded {
		sets = append(append([]string(nil), f.sets...), "bootstrap.servers="+embeddedPlaceholder)
	}
	cfg, err := p.loadChecked(f.files, sets, stderr)
	if err != nil {
		return err
	}
	topo, err := p.buildTopology(cfg, f.topologyArgs(), stderr)
	if err != nil {
		return err
	}
	log := newLogger(cfg, stderr)
	if embedded {
		b, err := startEmbeddedBroker(filepath.Join(cfg.StateDir, "embedded-broker"), log)
		if err != nil {
			return err
		}
		defer b.Close()
		addrs := strings.Join(b.Addrs(), ",")
		var diags compat.Diagnostics
		cfg, diags = compat.LoadFiles(f.files, append(append([]string(nil), f.sets...), "bootstrap.servers="+addrs), nil, p.loadOptions()...)
		if err := diags.Err(); err != nil {
			return err
		}
		log.Warn("running on an embedded in-process broker (stoatflow.embedded-broker=true): for demos and tests, not production",
			"bootstrap", addrs, "dir", filepath.Join(cfg.StateDir, "embedded-broker"))
		if err := b.CreateTopics(ctx, externalTopics(topo), 1); err != nil {
			return err
		}
	}
	logStreamsConfig(cfg, log, stderr)
	app, err := newApp(cfg, topo, log, p.streamsOptions()...)
	if err != nil {
		return explainStart(cfg, err)
	}
	return app.run(ctx)
}

// embeddedPlaceholder stands in for bootstrap.servers until the embedded
// broker has its address.
const embeddedPlaceholder = "embedded-broker:9092"

// externalTopics are the topology's source and sink topics that are not
// internal (the application's input and output).
func externalTopics(topo *kstreams.Topology) []string {
	seen := map[string]bool{}
	var out []string
	for _, st := range topo.Subtopologies() {
		for _, r := range append(append([]kstreams.TopicRef(nil), st.Sources...), st.Sinks...) {
			if !r.Internal && !seen[r.Name] {
				seen[r.Name] = true
				out = append(out, r.Name)
			}
		}
	}
	for _, g := range topo.GlobalStores() {
		if !seen[g.Topic] {
			seen[g.Topic] = true
			out = append(out, g.Topic)
		}
	}
	return out
}

// app is one running StoatFlow application: runtime, metrics and HTTP
// server.
type app struct {
	cfg     *compat.Config
	topo    *kstreams.Topology
	log     *slog.Logger
	reg     *metrics.Registry
	srv     *httpapi.Server
	streams *streams.KafkaStreams
	parts   *partitionCounter
}

func newApp(cfg *compat.Config, topo *kstreams.Topology, log *slog.Logger, opts ...streams.Option) (*app, error) {
	a := &app{cfg: cfg, topo: topo, log: log}
	storeSub := map[string]int{}
	for _, st := range topo.Subtopologies() {
		for _, s := range st.Stores {
			storeSub[s.Name] = st.ID
		}
	}
	a.reg = metrics.New(metrics.Options{
		// Hooks fire only after Start, when the process id is known.
		ThreadID:         func(n int) string { return cfg.ThreadClientID(a.streams.ProcessID(), n) },
		StoreSubtopology: storeSub,
		Config:           cfg,
	})
	a.reg.SetClientState(streams.Created)
	a.parts = &partitionCounter{cfg: cfg, topo: topo, log: log}
	ks, err := streams.New(topo, cfg, append([]streams.Option{streams.WithLogger(log), streams.WithHooks(a.reg)}, opts...)...)
	if err != nil {
		return nil, err
	}
	a.streams = ks
	// Queries read with the instance's own default serdes: one registry
	// client and schema cache with its tasks.
	defKey, defVal, err := ks.DefaultSerdes()
	if err != nil {
		return nil, err
	}
	a.srv, err = httpapi.New(httpapi.Config{
		Listen: cfg.HTTPListen, AuthToken: cfg.HTTPAuthToken.Value(),
		TLSCertFile: cfg.HTTPTLSCertFile, TLSKeyFile: cfg.HTTPTLSKeyFile,
		Isolation: isolation(cfg.IsolationLevel), ApplicationServer: cfg.ApplicationServer,
		ProcessID: ks.ProcessID, Streams: ks, Topology: topo, ApplicationID: cfg.ApplicationID,
		DefaultKeySerde: defKey, DefaultValueSerde: defVal,
		Partitions: a.parts.count, Metrics: a.reg, Logger: log,
		Remote: cfg.QueryRemote, RemoteTimeout: cfg.QueryRemoteTimeout,
	})
	if err != nil {
		return nil, err
	}
	ks.SetStateListener(func(next, _ streams.State) {
		a.reg.SetClientState(next)
		switch next {
		case streams.Running, streams.Rebalancing:
			a.reg.SetAliveStreamThreads(cfg.NumStreamThreads)
		case streams.NotRunning, streams.Error:
			a.reg.SetAliveStreamThreads(0)
		}
	})
	return a, nil
}

// isolation maps the configured level onto the stores' level.
func isolation(l compat.IsolationLevel) state.IsolationLevel {
	if l == compat.ReadCommitted {
		return state.ReadCommitted
	}
	return state.ReadUncommitted
}

// run serves HTTP, runs the application until ctx ends (SIGTERM, SIGINT) or
// the application fails, then closes it within stoatflow.shutdown.timeout-ms:
// the last epoch commits and every store closes cleanly, so a restart
// replays nothing.
func (a *app) run(ctx context.Context) error {
	addr, err := a.srv.Listen()
	if err != nil {
		return explainStart(a.cfg, err)
	}
	httpCtx, stopHTTP := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	var httpErr error
	go func() {
		defer wg.Done()
		httpErr = a.srv.Run(httpCtx)
	}()
	defer func() {
		stopHTTP()
		wg.Wait()
		a.parts.close()
	}()
	scheme := "http"
	if a.cfg.HTTPTLSCertFile != "" {
		scheme = "https"
	}
	a.log.Info("HTTP server listening", "url", scheme+"://"+addr.String(), "routes", "/metrics /healthz /readyz /metadata /stores/...")

	if err := a.streams.Start(ctx); err != nil {
		return explainStart(a.cfg, err)
	}
	a.parts.setProcessID(a.streams.ProcessID())
	a.reg.SetProcess(a.cfg.EffectiveClientID(a.streams.ProcessID()), a.streams.ProcessID())
	a.log.Info("started", "topology", a.cfg.Topology, "process_id", a.streams.ProcessID(),
		"threads", a.cfg.NumStreamThreads, "processing.guarantee", a.cfg.ProcessingGuarantee.String())
	select {
	case <-ctx.Done():
		a.log.Info("shutting down: committing and closing stores", "timeout", a.cfg.ShutdownTimeout.String())
	case <-a.streams.Done():
	}
	cctx, cancel := context.WithTimeout(context.Background(), a.cfg.ShutdownTimeout)
	defer cancel()
	err = a.streams.Close(cctx)
	if err != nil {
		a.log.Error("stopped with an error", "err", err)
		return fmt.Errorf("sidecar: %w", err)
	}
	a.log.Info("stopped cleanly")
	if httpErr != nil && !errors.Is(httpErr, context.Canceled) {
		return httpErr
	}
	return nil
}

// partitionCounter finds how many partitions (tasks) a store has: the
// partition count of its sub-topology's source topics, read once from the
// broker and cached.
type partitionCounter struct {
	cfg  *compat.Config
	topo *kstreams.Topology
	log  *slog.Logger
	mu   struct {
		sync.Mutex
		pid    string
		admin  *kgo.Client
		counts map[string]int
	}
}

func (p *partitionCounter) setProcessID(pid string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.mu.pid = pid
}

func (p *partitionCounter) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mu.admin != nil {
		p.mu.admin.Close()
		p.mu.admin = nil
	}
}

func (p *partitionCounter) count(ctx context.Context, store string) (int, error) {
	topic := ""
	for _, st := range p.topo.Subtopologies() {
		for _, s := range st.Stores {
			if s.Name == store && len(st.Sources) > 0 {
				topic = st.Sources[0].Decorated(p.cfg.ApplicationID)
			}
		}
	}
	if topic == "" {
		return 0, fmt.Errorf("store %s has no source topic", store)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if n, ok := p.mu.counts[topic]; ok {
		return n, nil
	}
	if p.mu.admin == nil {
		opts, err := p.cfg.AdminOptions(p.mu.pid)
		if err != nil {
			return 0, err
		}
		admin, err := kgo.NewClient(append(opts, kgo.WithLogger(kgolog.New(p.log, "admin")))...)
		if err != nil {
			return 0, err
		}
		p.mu.admin = admin
		p.mu.counts = map[string]int{}
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
	}
	md, err := kadm.NewClient(p.mu.admin).Metadata(ctx, topic)
	if err != nil {
		return 0, err
	}
	tm, ok := md.Topics[topic]
	if !ok || tm.Err != nil || len(tm.Partitions) == 0 {
		return 0, fmt.Errorf("topic %s: %v", topic, tm.Err)
	}
	p.mu.counts[topic] = len(tm.Partitions)
	return len(tm.Partitions), nil
}
