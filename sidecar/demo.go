package sidecar

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/demoinput"
	"github.com/stoatflow/stoatflow/internal/storeformat"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
)

// demoLines are the demo's input, in two batches: the first is counted and
// committed, the second shows what each isolation level sees before its
// commit. make demo-jvm's twin feeds the same lines (internal/demoinput).
var demoLines = demoinput.Batches()

// demoCommitInterval is long enough that the second batch sits uncommitted
// for a while, visible to READ_UNCOMMITTED queries only.
const demoCommitInterval = 3 * time.Second

// demoTopologyName is the stoatflow.topology the demo's configuration names:
// the topology is examples/wordcount's.
const demoTopologyName = "wordcount"

// demoTopology is the word count of examples/wordcount, the twin of the
// Kafka Streams word count make demo-jvm runs, built here so that the
// sidecar imports no example and the demo runs in every sidecar binary,
// whatever topologies it was given. TestDemoTopologyIsTheWordCountExample
// keeps the two alike.
func demoTopology(input, output string) (*kstreams.Topology, error) {
	b := kstreams.NewStreamsBuilder()
	lines := kstreams.Stream[string, string](b, []string{input})
	words := kstreams.FlatMapValues(lines, demoWords)
	counts := kstreams.GroupBy(words, func(_, word string) string { return word }).Count()
	counts.ToStream().To(output, kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	return b.Build()
}

// demoWords lowercases line and splits it as examples/wordcount's Words
// does, and Java's line.toLowerCase(Locale.ROOT).split("\\W+"): a line
// without a match is one word; trailing empty strings are dropped, a
// leading one (from leading punctuation) is kept. Every byte other than
// [0-9A-Za-z_] separates words.
func demoWords(line string) []string {
	line = strings.ToLower(line)
	var words []string
	start, split := 0, false
	for i := 0; i < len(line); {
		if isWordByte(line[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(line) && !isWordByte(line[j]) {
			j++
		}
		words = append(words, line[start:i])
		start, i, split = j, j, true
	}
	if !split {
		return []string{line}
	}
	words = append(words, line[start:])
	for len(words) > 0 && words[len(words)-1] == "" {
		words = words[:len(words)-1]
	}
	return words
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("demo", stderr)
	bootstrap := fs.String("bootstrap", "", "run against the Kafka broker at `host:port` instead of an embedded one")
	stateDir := fs.String("state-dir", "", "keep the broker's data and the stores in `dir` (default: a temporary directory, removed at exit)")
	verbose := fs.Bool("verbose", false, "show the runtime's log")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		return usageError(fs, "unexpected argument %q", fs.Arg(0))
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelInfo
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()

	dir := *stateDir
	if dir == "" {
		d, err := os.MkdirTemp("", "stoatflow-demo-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	servers := []string{*bootstrap}
	if *bootstrap == "" {
		b, err := startEmbeddedBroker(filepath.Join(dir, "broker"), log)
		if err != nil {
			return err
		}
		defer b.Close()
		servers = b.Addrs()
		fmt.Fprintf(stdout, "Embedded Kafka-protocol broker (kfake) on %s, data in %s\n", servers[0], filepath.Join(dir, "broker"))
	} else {
		fmt.Fprintf(stdout, "Kafka broker at %s\n", *bootstrap)
	}
	run := time.Now().Format("20060102-150405")
	in, out := "demo-plaintext-input-"+run, "demo-wordcount-output-"+run
	if err := createTopics(ctx, servers, []string{in, out}, 2); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Created topics %s and %s (2 partitions each)\n", in, out)

	cfg, diags := compat.LoadFiles(nil, []string{
		"application.id=stoatflow-demo-" + run,
		"bootstrap.servers=" + strings.Join(servers, ","),
		"processing.guarantee=exactly_once_v2",
		fmt.Sprintf("commit.interval.ms=%d", demoCommitInterval.Milliseconds()),
		"default.key.serde=org.apache.kafka.common.serialization.Serdes$StringSerde",
		"default.value.serde=org.apache.kafka.common.serialization.Serdes$StringSerde",
		"statestore.cache.max.bytes=0",
		"replication.factor=1",
		"state.dir=" + filepath.Join(dir, "state"),
		"stoatflow.topology=" + demoTopologyName,
		// No KIP-714 client telemetry: nothing in the demo reads it.
		"enable.metrics.push=false",
	}, nil)
	if err := diags.Err(); err != nil {
		return err
	}
	topo, err := demoTopology(in, out)
	if err != nil {
		return err
	}
	app, err := streams.New(topo, cfg, streams.WithLogger(log))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Starting word count on StoatFlow (exactly_once_v2, commit.interval.ms=%d)\n", demoCommitInterval.Milliseconds())
	if err := app.Start(ctx); err != nil {
		return err
	}
	closeStreams := func() error {
		cctx, ccancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer ccancel()
		return app.Close(cctx)
	}
	if err := waitRunning(ctx, app); err != nil {
		_ = closeStreams()
		return err
	}

	printer, err := newCountPrinter(servers, out, stdout)
	if err != nil {
		_ = closeStreams()
		return err
	}
	defer printer.close()

	err = demoSteps(ctx, app, topo, servers, in, printer, stdout)
	if cerr := closeStreams(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "Closed cleanly: every store committed, nothing to replay on the next start. Done.")
	return nil
}

// waitRunning waits until the instance has restored and runs.
func waitRunning(ctx context.Context, s *streams.KafkaStreams) error {
	for s.State() != streams.Running {
		select {
		case <-ctx.Done():
			return fmt.Errorf("sidecar demo: the application did not reach RUNNING (state %s): %w", s.State(), ctx.Err())
		case <-s.Done():
			return fmt.Errorf("sidecar demo: the application stopped: %v", s.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
	return nil
}

func demoSteps(ctx context.Context, app *streams.KafkaStreams, topo *kstreams.Topology, servers []string, in string,
	printer *countPrinter, stdout io.Writer) error {
	words := 0
	for _, l := range demoLines[0] {
		words += len(demoWords(l))
	}
	fmt.Fprintf(stdout, "\nWriting %d lines to %s; counts appear as their transactions commit:\n", len(demoLines[0]), in)
	if err := produceLines(ctx, servers, in, demoLines[0]); err != nil {
		return err
	}
	if err := printer.waitFor(ctx, words); err != nil {
		return err
	}

	store := ""
	for _, st := range topo.Subtopologies() {
		for _, s := range st.Stores {
			store = s.Name
		}
	}
	const word = "hello"
	fmt.Fprintf(stdout, "\nInteractive query of store %s for %q, at both isolation levels:\n", store, word)
	// The counts are in the output once their transaction commits; the
	// stores commit right after it, when both levels read the same.
	var uncommitted, before int64
	var err error
	for {
		if uncommitted, err = queryCount(app, store, word, state.ReadUncommitted); err != nil {
			return err
		}
		if before, err = queryCount(app, store, word, state.ReadCommitted); err != nil {
			return err
		}
		if before == uncommitted {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
	fmt.Fprintf(stdout, "  READ_UNCOMMITTED %s = %d   (nothing pending: every write is committed)\n", word, uncommitted)
	fmt.Fprintf(stdout, "  READ_COMMITTED   %s = %d\n", word, before)
	fmt.Fprintf(stdout, "\nWriting %q; querying before the next commit:\n", demoLines[1][0])
	if err := produceLines(ctx, servers, in, demoLines[1]); err != nil {
		return err
	}
	// Wait until the stream thread has processed the line, then read both
	// levels at once: the thread's pending writes are in the store's overlay.
	var ru, rc int64
	for {
		if ru, err = queryCount(app, store, word, state.ReadUncommitted); err != nil {
			return err
		}
		if rc, err = queryCount(app, store, word, state.ReadCommitted); err != nil {
			return err
		}
		if ru > before {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
	fmt.Fprintf(stdout, "  READ_UNCOMMITTED %s = %d   (sees the stream thread's uncommitted write)\n", word, ru)
	fmt.Fprintf(stdout, "  READ_COMMITTED   %s = %d   (committed data only)\n", word, rc)
	if err := printer.waitFor(ctx, words+len(demoWords(demoLines[1][0]))); err != nil {
		return err
	}
	// The output is visible once the transaction commits; the stores commit
	// right after it.
	for rc < ru {
		if rc, err = queryCount(app, store, word, state.ReadCommitted); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
	fmt.Fprintf(stdout, "After the commit:\n  READ_COMMITTED   %s = %d\n\n", word, rc)
	return nil
}

// queryCount reads word's count from the local store partition holding it.
func queryCount(app *streams.KafkaStreams, store, word string, iso state.IsolationLevel) (int64, error) {
	for _, ls := range app.LocalStores(store) {
		kv, ok := ls.Store.(state.KeyValueStore)
		if !ok {
			continue
		}
		v, err := kv.ReadOnly(iso).Get([]byte(word))
		if err != nil {
			return 0, err
		}
		if v == nil {
			continue
		}
		_, raw, err := storeformat.SplitTimestamped(v)
		if err != nil {
			return 0, err
		}
		if len(raw) != 8 {
			return 0, fmt.Errorf("sidecar demo: count of %q has %d bytes", word, len(raw))
		}
		return int64(binary.BigEndian.Uint64(raw)), nil
	}
	return 0, nil
}

// produceLines writes lines as String records keyed by nothing (as the
// console producer does), idempotently, and waits for their acks.
func produceLines(ctx context.Context, servers []string, topic string, lines []string) error {
	p, err := kgo.NewClient(kgo.SeedBrokers(servers...), kgo.DisableClientMetrics(), kgo.DefaultProduceTopic(topic),
		kgo.ProducerLinger(5*time.Millisecond))
	if err != nil {
		return fmt.Errorf("sidecar demo: producer for %v: %w", servers, err)
	}
	defer p.Close()
	recs := make([]*kgo.Record, 0, len(lines))
	for _, l := range lines {
		recs = append(recs, &kgo.Record{Value: []byte(l)})
	}
	if err := p.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		return fmt.Errorf("sidecar demo: writing to %s: %w", topic, err)
	}
	return nil
}

// countPrinter reads the output topic read_committed and prints every count
// as it arrives.
type countPrinter struct {
	c      *kgo.Client
	w      io.Writer
	wg     sync.WaitGroup
	cancel context.CancelFunc
	mu     struct {
		sync.Mutex
		n   int
		err error
	}
}

func newCountPrinter(servers []string, topic string, w io.Writer) (*countPrinter, error) {
	c, err := kgo.NewClient(kgo.SeedBrokers(servers...), kgo.DisableClientMetrics(),
		kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()),
	)
	if err != nil {
		return nil, fmt.Errorf("sidecar demo: consumer for %v: %w", servers, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &countPrinter{c: c, w: w, cancel: cancel}
	p.wg.Add(1)
	go p.loop(ctx)
	return p, nil
}

func (p *countPrinter) loop(ctx context.Context) {
	defer p.wg.Done()
	for ctx.Err() == nil {
		fetches := p.c.PollFetches(ctx)
		var fatal error
		fetches.EachError(func(topic string, part int32, err error) {
			if fatal == nil && !errors.Is(err, context.Canceled) && !kerr.IsRetriable(err) {
				fatal = fmt.Errorf("sidecar demo: reading %s-%d: %w", topic, part, err)
			}
		})
		fetches.EachRecord(func(e *kgo.Record) {
			_, _ = io.WriteString(p.w, demoinput.CountLine(string(e.Key), e.Value))
			p.mu.Lock()
			p.mu.n++
			p.mu.Unlock()
		})
		if fatal != nil {
			p.mu.Lock()
			p.mu.err = fatal
			p.mu.Unlock()
			return
		}
	}
}

// waitFor waits until n count records have been printed.
func (p *countPrinter) waitFor(ctx context.Context, n int) error {
	for {
		p.mu.Lock()
		got, err := p.mu.n, p.mu.err
		p.mu.Unlock()
		if err != nil {
			return err
		}
		if got >= n {
			return nil
		}
		select {
		case <-ctx.Done():
			return errors.Join(fmt.Errorf("sidecar demo: %d of %d counts arrived", got, n), ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func (p *countPrinter) close() {
	p.cancel()
	p.wg.Wait()
	p.c.Close()
}
