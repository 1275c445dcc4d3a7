package sidecar

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
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	vm "github.com/VictoriaMetrics/metrics"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/kgolog"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/metrics"
	"github.com/stoatflow/stoatflow/sidecar/internal/httpapi"
	"github.com/stoatflow/stoatflow/sidecar/internal/shadow"
	"github.com/stoatflow/stoatflow/streams"
)

// shadowFlags are the flags of the shadow command.
type shadowFlags struct {
	files      stringList
	sets, args pairList
	mode       shadow.Mode
	// memory keeps StoatFlow's outputs in memory (--outputs memory)
	// instead of writing shadow topics.
	memory        bool
	appID, suffix string
	listen        string
	// listenFromConfig is set when listen is stoatflow.http.listen's,
	// --listen not given.
	listenFromConfig bool
	grace, drain     time.Duration
	maxDivergences   int
}

func parseShadowFlags(args []string, stderr io.Writer) (*shadowFlags, error) {
	fs := newFlagSet("shadow", stderr)
	f := &shadowFlags{}
	fs.Var(&f.files, "config", "the Kafka Streams application's .properties `file` (repeatable; later files win)")
	fs.Var(&f.sets, "set", "a `key=value` override (repeatable; wins over files)")
	fs.Var(&f.args, "arg", "a topology argument `name=value`, such as input=my-topic (repeatable)")
	mode := fs.String("mode", "sequence", "`sequence`: every update per key in order (no caching); latest: the latest value per key or window (with caching)")
	fs.StringVar(&f.appID, "application-id", "", "the shadow's application.id (default <application.id>-shadow): its group and internal topics")
	outputs := fs.String("outputs", "topics", "where StoatFlow's outputs go: `topics`, shadow topics <output topic><suffix>; memory, kept in memory until compared (nothing written)")
	fs.StringVar(&f.suffix, "suffix", "-shadow", "the shadow topics' `suffix`: StoatFlow writes <output topic><suffix>")
	fs.StringVar(&f.listen, "listen", "", "HTTP `host:port` of /metrics and /shadow (default stoatflow.http.listen)")
	fs.DurationVar(&f.grace, "grace", 30*time.Second, "how long a record waits for its counterpart, or a key stays quiet before it is compared (latest)")
	fs.DurationVar(&f.drain, "drain", 15*time.Second, "on stop, how long to keep reading the outputs until they are quiet")
	fs.IntVar(&f.maxDivergences, "max-divergences", 100, "the first `n` divergences kept, logged and served")
	if err := fs.Parse(args); err != nil {
		return nil, errUsage
	}
	if fs.NArg() > 0 {
		return nil, usageError(fs, "unexpected argument %q; give files with --config", fs.Arg(0))
	}
	if len(f.files) == 0 {
		return nil, usageError(fs, "give at least one --config FILE")
	}
	m, err := shadow.ParseMode(*mode)
	if err != nil {
		return nil, usageError(fs, "--mode: %s", strings.TrimPrefix(err.Error(), "shadow: "))
	}
	f.mode = m
	switch *outputs {
	case "topics":
	case "memory":
		f.memory = true
	default:
		return nil, usageError(fs, "--outputs %q: want topics (shadow topics) or memory (nothing written)", *outputs)
	}
	if f.suffix == "" {
		return nil, usageError(fs, "--suffix cannot be empty: StoatFlow would write to the application's own output topics")
	}
	return f, nil
}

// runShadow runs the Go topology beside the live Kafka Streams application
// under a derived application.id, its outputs redirected to shadow topics,
// and compares those with the application's outputs until ctx ends; then it
// prints the summary. It returns errDifferent when the summary has
// mismatched or missing records.
func runShadow(ctx context.Context, p *program, args []string, stdout, stderr io.Writer) error {
	f, err := parseShadowFlags(args, stderr)
	if err != nil {
		return err
	}
	live, err := loadConfig(f.files, f.sets, nil, stderr, p.loadOptions()...)
	if err != nil {
		return err
	}
	if f.appID == "" {
		f.appID = live.ApplicationID + "-shadow"
	}
	if f.appID == live.ApplicationID {
		return usageError(newFlagSet("shadow", stderr), "--application-id %s is the live application's: give the shadow an application.id of its own (its group and internal topics), or leave the flag out for %s-shadow", f.appID, live.ApplicationID)
	}
	cfg, err := p.loadChecked(f.files, append(slices.Clone([]string(f.sets)), "application.id="+f.appID), stderr)
	if err != nil {
		return err
	}
	rf := &runFlags{args: f.args}
	topo, err := p.buildTopology(cfg, rf.topologyArgs(), stderr)
	if err != nil {
		return err
	}
	outputs := outputTopics(topo)
	if len(outputs) == 0 {
		fmt.Fprintf(stderr, "sidecar shadow: topology %s writes to no output topic with a fixed name: nothing to compare\n", cfg.Topology)
		return errReported
	}
	if f.memory {
		if t := readsOwnOutput(topo, outputs); t != "" {
			return usageError(newFlagSet("shadow", stderr), "topology %s reads its output topic %s, which StoatFlow does not write with --outputs memory: use --outputs topics", cfg.Topology, t)
		}
	} else {
		topo.RedirectSinks(func(t string) string { return t + f.suffix })
	}
	log := newLogger(cfg, stderr).With("shadow", f.appID)
	if f.listen == "" {
		f.listen, f.listenFromConfig = cfg.HTTPListen, true
	}
	s := &shadowRun{cfg: cfg, topo: topo, log: log, flags: f, outputs: outputs, streamsOpts: p.streamsOptions()}
	return s.run(ctx, stdout)
}

// readsOwnOutput returns an output topic the topology also reads, "" when
// it reads none.
func readsOwnOutput(topo *kstreams.Topology, outputs []string) string {
	for _, st := range topo.Subtopologies() {
		for _, r := range st.Sources {
			if slices.Contains(outputs, r.Name) {
				return r.Name
			}
		}
	}
	return ""
}

// outputTopics are the topology's sink topics outside the application.
func outputTopics(topo *kstreams.Topology) []string {
	var out []string
	for _, st := range topo.Subtopologies() {
		for _, r := range st.Sinks {
			if !r.Internal && !slices.Contains(out, r.Name) {
				out = append(out, r.Name)
			}
		}
	}
	return out
}

// shadowRun is one run of the shadow command.
type shadowRun struct {
	cfg     *compat.Config
	topo    *kstreams.Topology
	log     *slog.Logger
	flags   *shadowFlags
	outputs []string
	// streamsOpts are the program's runtime options (its production
	// handlers).
	streamsOpts []streams.Option
	cmp         *shadow.Comparer
	// lastRecord is the UnixNano time the reader last got a record.
	lastRecord atomic.Int64
}

func (s *shadowRun) run(ctx context.Context, stdout io.Writer) error {
	opts, err := s.cfg.AdminOptions("shadow")
	if err != nil {
		return err
	}
	admin, err := kgo.NewClient(append(opts, kgo.WithLogger(kgolog.New(s.log, "admin")))...)
	if err != nil {
		return fmt.Errorf("sidecar: shadow admin client: %w", err)
	}
	defer admin.Close()
	if err := s.createShadowTopics(ctx, kadm.NewClient(admin)); err != nil {
		return err
	}

	s.cmp = shadow.NewComparer(shadow.Options{Mode: s.flags.mode, Grace: s.flags.grace, MaxDivergences: s.flags.maxDivergences,
		OnDivergence: func(d shadow.Divergence) { s.log.Warn("shadow divergence", "divergence", d.String()) }})
	reg := metrics.New(metrics.Options{Config: s.cfg})
	set := s.metrics()
	ksOpts := append([]streams.Option{streams.WithLogger(s.log), streams.WithHooks(reg)}, s.streamsOpts...)
	if s.flags.memory {
		ksOpts = append(ksOpts, streams.WithCapture(s.capture()))
	}
	ks, err := streams.New(s.topo, s.cfg, ksOpts...)
	if err != nil {
		return err
	}
	reg.SetClientState(streams.Created)
	ks.SetStateListener(func(next, _ streams.State) {
		reg.SetClientState(next)
		switch next {
		case streams.Running, streams.Rebalancing:
			reg.SetAliveStreamThreads(s.cfg.NumStreamThreads)
		case streams.NotRunning, streams.Error:
			reg.SetAliveStreamThreads(0)
		}
	})
	ln, err := net.Listen("tcp", s.flags.listen)
	if err != nil {
		if s.flags.listenFromConfig {
			return explainStart(s.cfg, err)
		}
		return fmt.Errorf("sidecar shadow: --listen %s: cannot listen; %s (%w)", s.flags.listen, listenHint("give --listen", err), err)
	}
	srv := &http.Server{Handler: s.handler(reg, set, ks), ReadHeaderTimeout: 10 * time.Second}

	readerOpts, err := s.cfg.AdminOptions("shadow-reader")
	if err != nil {
		return err
	}
	watched := map[string]watch{}
	var topics []string
	for _, t := range s.outputs {
		watched[t] = watch{shadow.KafkaStreams, t}
		topics = append(topics, t)
		if !s.flags.memory {
			watched[t+s.flags.suffix] = watch{shadow.StoatFlow, t}
			topics = append(topics, t+s.flags.suffix)
		}
	}
	reader, err := kgo.NewClient(append(readerOpts, kgo.WithLogger(kgolog.New(s.log, "shadow-reader")),
		kgo.ConsumeTopics(topics...), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()))...)
	if err != nil {
		return fmt.Errorf("sidecar: shadow reader: %w", err)
	}
	defer reader.Close()

	var wg sync.WaitGroup
	readCtx, stopRead := context.WithCancel(context.Background())
	defer stopRead()
	wg.Add(3)
	go func() {
		defer wg.Done()
		var err error
		if s.cfg.HTTPTLSCertFile != "" {
			err = srv.ServeTLS(ln, s.cfg.HTTPTLSCertFile, s.cfg.HTTPTLSKeyFile)
		} else {
			err = srv.Serve(ln)
		}
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("shadow HTTP server", "err", err)
		}
	}()
	go func() {
		defer wg.Done()
		s.read(readCtx, reader, watched)
	}()
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-readCtx.Done():
				return
			case now := <-t.C:
				s.cmp.Check(now)
			}
		}
	}()
	stopAll := func() {
		stopRead()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		wg.Wait()
	}
	scheme := "http"
	if s.cfg.HTTPTLSCertFile != "" {
		scheme = "https"
	}
	where := []any{"shadow_topics_suffix", s.flags.suffix}
	if s.flags.memory {
		where = []any{"stoatflow_outputs", "memory"}
	}
	s.log.Info("shadow running", append([]any{"topology", s.cfg.Topology, "mode", s.flags.mode.String(), "outputs", strings.Join(s.outputs, ","),
		"url", scheme + "://" + ln.Addr().String() + "/shadow"}, where...)...)
	if err := ks.Start(ctx); err != nil {
		stopAll()
		return fmt.Errorf("sidecar: starting the shadow of %s: %w", s.cfg.Topology, err)
	}
	select {
	case <-ctx.Done():
	case <-ks.Done():
	}
	cctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	closeErr := ks.Close(cctx)
	cancel()
	s.drainOutputs()
	stopAll()
	r := s.cmp.Finish(time.Now())
	summary := r.Summary()
	s.log.Info(strings.TrimSpace(summary))
	if _, err := io.WriteString(stdout, summary); err != nil {
		return err
	}
	if closeErr != nil {
		return fmt.Errorf("sidecar: shadow: %w", closeErr)
	}
	if r.Total.Mismatched > 0 || r.Total.Missing > 0 {
		return errDifferent
	}
	return nil
}

// drainOutputs keeps reading after the shadow stopped until no record has
// come for two seconds (or --drain passed), so the summary covers what both
// sides had written.
func (s *shadowRun) drainOutputs() {
	deadline := time.Now().Add(s.flags.drain)
	for time.Now().Before(deadline) {
		if time.Since(time.Unix(0, s.lastRecord.Load())) > 2*time.Second {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// watch is what a topic the reader reads stands for: a side, and the
// application's output topic it is reported as.
type watch struct {
	side  shadow.Side
	topic string
}

func (s *shadowRun) read(ctx context.Context, reader *kgo.Client, watched map[string]watch) {
	for {
		fetches := reader.PollFetches(ctx)
		if ctx.Err() != nil {
			return
		}
		fetches.EachError(func(topic string, p int32, err error) {
			if !errors.Is(err, context.Canceled) {
				s.log.Warn("shadow reader: fetch", "topic", topic, "partition", p, "err", err)
			}
		})
		now := time.Now()
		fetches.EachRecord(func(r *kgo.Record) {
			w, ok := watched[r.Topic]
			if !ok {
				return
			}
			s.lastRecord.Store(now.UnixNano())
			_ = s.cmp.Add(w.side, shadow.Record{Topic: w.topic, Partition: r.Partition, Offset: r.Offset, Key: r.Key, Value: r.Value}, now)
		})
	}
}

// capture hands StoatFlow's committed outputs straight to the comparer
// (--outputs memory), numbered per partition as offsets would number them.
// Records of an output topic outside the comparison (a sink that picks its
// topic per record) are dropped, as the shadow topics mode leaves them
// unread.
func (s *shadowRun) capture() streams.Capture {
	compared := map[string]bool{}
	for _, t := range s.outputs {
		compared[t] = true
	}
	internal := s.cfg.ApplicationID + "-"
	var mu sync.Mutex
	next := map[string]map[int32]int64{}
	return streams.Capture{
		// Every topic outside the shadow's own internal ones: nothing of
		// the shadow may reach the application's outputs.
		Topics: func(topic string) bool { return !strings.HasPrefix(topic, internal) },
		Deliver: func(recs []streams.CapturedRecord) {
			now := time.Now()
			mu.Lock()
			defer mu.Unlock()
			for _, r := range recs {
				if !compared[r.Topic] {
					continue
				}
				if next[r.Topic] == nil {
					next[r.Topic] = map[int32]int64{}
				}
				off := next[r.Topic][r.Partition]
				next[r.Topic][r.Partition] = off + 1
				s.lastRecord.Store(now.UnixNano())
				_ = s.cmp.Add(shadow.StoatFlow, shadow.Record{Topic: r.Topic, Partition: r.Partition, Offset: off, Key: r.Key, Value: r.Value}, now)
			}
		},
	}
}

// createShadowTopics creates each output's shadow topic with the output's
// partition count, or checks the one a previous run created; with
// --outputs memory it only checks the outputs are readable.
func (s *shadowRun) createShadowTopics(ctx context.Context, adm *kadm.Client) error {
	mctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var all []string
	for _, t := range s.outputs {
		all = append(all, t, t+s.flags.suffix)
	}
	md, err := adm.Metadata(mctx, all...)
	if err != nil {
		return fmt.Errorf("sidecar: shadow: reading the output topics' metadata: %w", err)
	}
	for _, t := range s.outputs {
		live, ok := md.Topics[t]
		if !ok || live.Err != nil || len(live.Partitions) == 0 {
			return fmt.Errorf("sidecar: shadow: output topic %s of the Kafka Streams application is not readable (%v): start the application first, or create the topic", t, live.Err)
		}
		if s.flags.memory {
			continue
		}
		shadowTopic := t + s.flags.suffix
		if sh, ok := md.Topics[shadowTopic]; ok && sh.Err == nil && len(sh.Partitions) > 0 {
			if len(sh.Partitions) != len(live.Partitions) {
				return fmt.Errorf("sidecar: shadow: topic %s has %d partitions and %s %d: delete %s so the shadow creates it again",
					shadowTopic, len(sh.Partitions), t, len(live.Partitions), shadowTopic)
			}
			continue
		}
		rf := int16(-1)
		if s.cfg.ReplicationFactor > 0 {
			rf = int16(s.cfg.ReplicationFactor)
		}
		resp, err := adm.CreateTopic(mctx, int32(len(live.Partitions)), rf, nil, shadowTopic)
		if err == nil {
			err = resp.Err
		}
		if err != nil && !strings.Contains(err.Error(), "TOPIC_ALREADY_EXISTS") {
			return fmt.Errorf("sidecar: shadow: creating %s: %w", shadowTopic, err)
		}
		s.log.Info("shadow topic created", "topic", shadowTopic, "partitions", len(live.Partitions))
	}
	return nil
}

// metrics registers the comparison's gauges: per output topic, what has
// matched, mismatched, gone missing and waits, and the records read.
func (s *shadowRun) metrics() *vm.Set {
	set := vm.NewSet()
	mode := s.flags.mode.String()
	for _, t := range s.outputs {
		labels := fmt.Sprintf(`{topic=%q,mode=%q}`, t, mode)
		for name, get := range map[string]func(shadow.Counts) int64{
			"stoatflow_shadow_matched":    func(c shadow.Counts) int64 { return c.Matched },
			"stoatflow_shadow_mismatched": func(c shadow.Counts) int64 { return c.Mismatched },
			"stoatflow_shadow_missing":    func(c shadow.Counts) int64 { return c.Missing },
			"stoatflow_shadow_pending":    func(c shadow.Counts) int64 { return c.Pending },
		} {
			set.NewGauge(name+labels, func() float64 { return float64(get(s.cmp.Counts(t))) })
		}
		set.NewGauge(fmt.Sprintf(`stoatflow_shadow_records_read{topic=%q,side="kafka-streams"}`, t),
			func() float64 { return float64(s.cmp.Counts(t).ReadKafkaStreams) })
		set.NewGauge(fmt.Sprintf(`stoatflow_shadow_records_read{topic=%q,side="stoatflow"}`, t),
			func() float64 { return float64(s.cmp.Counts(t).ReadStoatFlow) })
	}
	return set
}

// handler serves /metrics (the runtime's and the comparison's), /shadow
// (the report as JSON), behind stoatflow.http.auth-token when one is set,
// and /healthz and /readyz, which need no token (as run's): /readyz
// answers 200 only while in, the shadow's instance, is RUNNING.
func (s *shadowRun) handler(reg *metrics.Registry, set *vm.Set, in interface{ State() streams.State }) http.Handler {
	token := s.cfg.HTTPAuthToken.Value()
	auth := func(h http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if token != "" && subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), []byte("Bearer "+token)) != 1 {
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
			h(w, r)
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok\n") })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) { httpapi.WriteReadiness(w, in) })
	mux.HandleFunc("GET /metrics", auth(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		reg.WritePrometheus(w)
		set.WritePrometheus(w)
	}))
	mux.HandleFunc("GET /shadow", auth(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(s.cmp.Report())
	}))
	return mux
}
