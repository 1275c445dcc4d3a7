package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// fleet is one run of a multi-instance word count on one engine under
// exactly_once_v2: its application id, topics and state directories, its
// instances by label and, once begun and loaded, the watch of its group,
// the steady feed of its input and the tail of its output. The rebalance
// and failover workloads run on it; close stops what is left and deletes
// what the run made.
type fleet struct {
	b      *bench
	name   string // "<workload> on <engine>, round <n>", for the log
	engine string
	appID  string
	input  string
	output string
	tps    []topicPartition // the input's
	root   string           // the instances' state directories
	props  string
	set    map[string]string // every instance's properties, over props

	procs  []*proc
	labels []string // procs[i]'s
	killed map[*proc]bool

	watch *groupWatch // from begin
	feed  *steadyFeed // from load
	tail  *outputTail // from load
}

// newFleet creates the input and output topics of application appID.
func (b *bench) newFleet(ctx context.Context, appID, name, engine, props string, set map[string]string) (*fleet, error) {
	f := &fleet{b: b, name: name, engine: engine, appID: appID, input: appID + "-in", output: appID + "-out",
		root: filepath.Join(b.workDir, appID), props: props, set: maps.Clone(set), killed: map[*proc]bool{}}
	// A stopped StoatFlow instance's static members leave the group, as
	// the reference jar's close does (CloseOptions LEAVE_GROUP).
	f.set["stoatflow.shutdown.leave-group"] = "true"
	err := b.broker.createTopics(ctx, b.cfg.partitions, nil, f.input, f.output)
	if err == nil {
		f.tps, err = b.broker.partitions(f.input)
	}
	if err == nil && f.streams() {
		// The broker takes these from the group's configs, before the
		// first member joins; both engines ignore the client's.
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err = testkafka.SetGroupConfigs(sctx, b.broker.client, appID, testkafka.StreamsGroupConfigs(f.set))
		cancel()
	}
	if err != nil {
		f.close()
		return nil, err
	}
	return f, nil
}

// streams reports whether the fleet's instances run a streams group
// (group.protocol=streams, KIP-1071) rather than a classic one.
func (f *fleet) streams() bool { return strings.EqualFold(f.set["group.protocol"], "streams") }

// close stops the feed, the tail and every instance left, and deletes the
// topics, the group and the state directories unless -keep.
func (f *fleet) close() {
	if f.tail != nil {
		f.tail.close()
	}
	if f.feed != nil {
		f.feed.stop()
	}
	// Every instance is stopped at once; each closes cleanly and leaves
	// the group.
	var wg sync.WaitGroup
	for _, p := range f.procs {
		wg.Go(func() {
			if err := p.stop(time.Minute); err != nil {
				f.b.logf("%s: %v", f.name, err)
			}
		})
	}
	wg.Wait()
	if !f.b.cfg.keep {
		f.b.broker.deletePrefix(context.Background(), f.appID)
		// Every member has left, so the group is empty and may go.
		dctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, _ = f.b.broker.admin.DeleteGroup(dctx, f.appID)
		cancel()
		os.RemoveAll(f.root)
	}
}

// start starts the instance label, with its own state directory and a
// fixed process id (seedProcessID).
func (f *fleet) start(label string) (*proc, error) {
	dir := filepath.Join(f.root, label)
	if err := seedProcessID(filepath.Join(dir, f.appID), label); err != nil {
		return nil, err
	}
	s := f.b.streamsSet(f.appID, dir, f.set)
	s["client.id"] = f.appID + "-" + label
	p, err := f.b.startEngine(f.engine, app{topology: "wordcount", props: f.props, set: s,
		args: map[string]string{"input": f.input, "output": f.output}}, f.appID, "")
	if err != nil {
		return nil, err
	}
	f.procs = append(f.procs, p)
	f.labels = append(f.labels, label)
	return p, nil
}

// begin starts an instance per label, each once the one before it is
// RUNNING (the first alone, so that it leads the group), and returns each
// stateful task's instance once the group has settled with all of them.
func (f *fleet) begin(ctx context.Context, labels ...string) (map[int32]string, error) {
	for _, label := range labels {
		p, err := f.start(label)
		if err != nil {
			return nil, err
		}
		if _, err := p.waitRunning(ctx); err != nil {
			return nil, err
		}
	}
	f.watch = &groupWatch{admin: f.b.broker.admin, client: f.b.broker.client, group: f.appID, streams: f.streams()}
	if !f.watch.streams {
		f.watch.log = openBrokerLog(brokerLogPath(f.b.root, f.b.cfg.bootstrap))
	}
	tasks, _, err := f.watch.settle(ctx, len(labels))
	return tasks, err
}

// load produces preload lines at once, then rate lines a second until the
// fleet closes, tails the output, and waits until the instances have
// committed the input to within a second's feed and the feed has run for
// after. Both engines then have the same input behind them at the event
// that follows; when they caught up only later, a note says that the event
// met more state.
func (f *fleet) load(ctx context.Context, preload, rate int, after time.Duration, event string) error {
	b := f.b
	b.logf("%s: producing %d lines to %s", f.name, preload, f.input)
	if err := produce(ctx, b.cfg.bootstrap, f.input, preload, b.line); err != nil {
		return err
	}
	f.feed = startFeed(ctx, b.cfg.bootstrap, f.input, rate, preload, b.line)
	tail, err := startTail(b.cfg.bootstrap, f.output, b.cfg.partitions)
	if err != nil {
		return err
	}
	f.tail = tail
	// Caught up: the input committed to within a second's feed.
	for {
		c, err := b.broker.committed(ctx, f.appID, f.tps)
		if err == nil && c >= int64(preload)+f.feed.fed()-int64(rate) {
			break
		}
		if cerr := f.check(ctx); cerr != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("%d preloaded lines not committed: %v", preload, err)
			}
			return cerr
		}
		time.Sleep(100 * time.Millisecond)
	}
	// At least a steady second past catching up.
	time.Sleep(time.Second)
	want := int64(float64(rate) * after.Seconds())
	for f.feed.fed() < want {
		if err := f.check(ctx); err != nil {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
	if fed := f.feed.fed(); fed > want+int64(rate) {
		b.notes = append(b.notes, fmt.Sprintf("%s: the instances caught up only after %d lines of the feed, not %d: "+
			"the %s came later, with more state", f.name, fed, want, event))
	}
	return nil
}

// check returns why the run cannot go on: the feed failed, an instance
// that was not killed exited, or ctx ended.
func (f *fleet) check(ctx context.Context) error {
	if f.feed != nil {
		if err := f.feed.failed(); err != nil {
			return err
		}
	}
	for _, p := range f.procs {
		if !f.killed[p] && !p.alive() {
			return fmt.Errorf("an instance exited: %v\n%s", p.err, p.stderr.String())
		}
	}
	return ctx.Err()
}

// instance returns the instance label, nil if there is none.
func (f *fleet) instance(label string) *proc {
	if i := slices.Index(f.labels, label); i >= 0 {
		return f.procs[i]
	}
	return nil
}

// kill ends p with SIGKILL, as a crash would, and waits for it; check no
// longer counts it.
func (f *fleet) kill(p *proc) {
	f.killed[p] = true
	p.kill()
}

// restores returns what the instance label restored within [from, to]:
// the records of its restores (RESTORE-END and RESTORE-SUSPENDED), those
// its standby and warm-up replicas loaded (the reference jar's
// STANDBY-BATCH lines; StoatFlow children print none), and each restore
// described for the log.
func (f *fleet) restores(label string, from, to time.Time) (restored, loaded int64, desc []string) {
	p := f.instance(label)
	if p == nil {
		return 0, 0, nil
	}
	restored = restoredBetween(p.linesWith("RESTORE-"), from, to)
	loaded = restoredBetween(p.linesWith("STANDBY-BATCH "), from, to)
	desc = describeRestores(label, p.linesWith("RESTORE-"), from, to)
	if loaded > 0 {
		desc = append(desc, fmt.Sprintf("%s loaded %d into standby or warm-up replicas", label, loaded))
	}
	return restored, loaded, desc
}

// peakRSS is the largest peak RSS of the instances still running.
func (f *fleet) peakRSS() int64 {
	var most int64
	for _, p := range f.procs {
		if rss, err := p.peakRSS(); err == nil && rss > most {
			most = rss
		}
	}
	return most
}

// seedProcessID writes the process id file both engines keep in
// <state.dir>/<application.id> (kafka-streams-process-metadata, the JSON
// Kafka Streams writes), a fixed UUID per instance label. The assignors
// order clients by process id, so fixed ids make both engines, every round,
// start from the same assignment and move the same tasks at the join.
func seedProcessID(appDir, label string) error {
	if err := os.MkdirAll(appDir, 0o755); err != nil {
		return err
	}
	var n uint64
	for _, c := range label {
		n = n<<8 | uint64(c)
	}
	id := fmt.Sprintf(`{"processId":"00000000-0000-4000-8000-%012x"}`, n)
	return os.WriteFile(filepath.Join(appDir, "kafka-streams-process-metadata"), []byte(id), 0o644)
}

// restoredBetween sums the records of the RESTORE-END, RESTORE-SUSPENDED
// and STANDBY-BATCH lines read within [from, to]: the records of every
// restore that ended, of every one interrupted before its end (whose next
// restore resumes where it stopped, so nothing counts twice), and of every
// batch a Kafka Streams standby or warm-up replica loaded (a warm-up
// promoted to active restores only the rest). The lines end with the
// records: StoatFlow children print RESTORE-END <unix ns> <store>
// <changelog partition> <records>, the reference jar RESTORE-END <store>
// <changelog partition> <records>.
func restoredBetween(lines []stamped, from, to time.Time) int64 {
	var n int64
	for _, l := range lines {
		if l.at.Before(from) || l.at.After(to) {
			continue
		}
		f := strings.Fields(l.text)
		if len(f) < 4 || (f[0] != "RESTORE-END" && f[0] != "RESTORE-SUSPENDED" && f[0] != "STANDBY-BATCH") {
			continue
		}
		if x, err := strconv.ParseInt(f[len(f)-1], 10, 64); err == nil {
			n += x
		}
	}
	return n
}

// describeRestores names an instance's restores within [from, to] for the
// log: "<instance> <changelog partition> from <offset> to <end offset>:
// <records>". Both engines' RESTORE-START lines give the changelog
// partition, then the start and end offsets.
func describeRestores(instance string, lines []stamped, from, to time.Time) []string {
	start := map[string]string{}
	var out []string
	for _, l := range lines {
		if l.at.Before(from) || l.at.After(to) {
			continue
		}
		f := strings.Fields(l.text)
		i := slices.IndexFunc(f, func(s string) bool { return strings.Contains(s, "-changelog-") })
		if i < 0 || i+1 >= len(f) {
			continue
		}
		tp := f[i][strings.LastIndexByte(f[i], '-')+1:]
		switch f[0] {
		case "RESTORE-START":
			if i+2 < len(f) {
				start[tp] = f[i+1] + " to " + f[i+2]
			}
		case "RESTORE-END":
			out = append(out, fmt.Sprintf("%s %s from %s: %s", instance, tp, start[tp], f[len(f)-1]))
		case "RESTORE-SUSPENDED":
			out = append(out, fmt.Sprintf("%s %s from %s: %s, suspended", instance, tp, start[tp], f[len(f)-1]))
		}
	}
	return out
}

// steadyFeed produces word-count lines at a fixed rate in the background.
type steadyFeed struct {
	n      atomic.Int64
	err    atomic.Pointer[error]
	cancel context.CancelFunc
	done   chan struct{}
}

// startFeed produces rate lines per second, gen(first), gen(first+1), ...,
// to topic until stopped.
func startFeed(ctx context.Context, bootstrap, topic string, rate, first int, gen func(int) record) *steadyFeed {
	ctx, cancel := context.WithCancel(ctx)
	f := &steadyFeed{cancel: cancel, done: make(chan struct{})}
	setErr := func(err error) { f.err.CompareAndSwap(nil, &err) }
	go func() {
		defer close(f.done)
		p, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(bootstrap, ",")...),
			kgo.DefaultProduceTopic(topic), kgo.ProducerLinger(5*time.Millisecond))
		if err != nil {
			setErr(err)
			return
		}
		defer p.Close()
		promise := func(_ *kgo.Record, err error) {
			if err != nil {
				setErr(fmt.Errorf("bench: feeding %s: %w", topic, err))
			}
		}
		begin := time.Now()
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		i := 0
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-t.C:
				for due := int(float64(rate) * now.Sub(begin).Seconds()); i < due; i++ {
					r := gen(first + i)
					p.Produce(ctx, &kgo.Record{Key: r.key, Value: r.value, Timestamp: time.Now()}, promise)
				}
				f.n.Store(int64(i))
			}
		}
	}()
	return f
}

// fed is how many lines the feed has handed to its producer.
func (f *steadyFeed) fed() int64 { return f.n.Load() }

func (f *steadyFeed) failed() error {
	if err := f.err.Load(); err != nil {
		return *err
	}
	return nil
}

func (f *steadyFeed) stop() {
	f.cancel()
	<-f.done
}

// outputTail reads a topic read_committed from its end and keeps, for each
// partition, the times records arrived (one per poll that brought any) and
// the producer that wrote them.
type outputTail struct {
	mu       sync.Mutex
	arrived  [][]time.Time
	producer [][]int64 // the producer id of the last record of arrived[p][i]
	cancel   context.CancelFunc
	done     chan struct{}
}

func startTail(bootstrap, topic string, partitions int) (*outputTail, error) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(bootstrap, ",")...),
		kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtEnd()),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()),
		kgo.FetchMaxWait(10*time.Millisecond),
	)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	o := &outputTail{arrived: make([][]time.Time, partitions), producer: make([][]int64, partitions), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(o.done)
		defer cl.Close()
		for ctx.Err() == nil {
			fs := cl.PollFetches(ctx)
			now := time.Now()
			o.mu.Lock()
			fs.EachPartition(func(p kgo.FetchTopicPartition) {
				if len(p.Records) > 0 && int(p.Partition) < len(o.arrived) {
					o.arrived[p.Partition] = append(o.arrived[p.Partition], now)
					o.producer[p.Partition] = append(o.producer[p.Partition], p.Records[len(p.Records)-1].ProducerID)
				}
			})
			o.mu.Unlock()
		}
	}()
	return o, nil
}

// allSince reports whether every partition received a record after at.
func (o *outputTail) allSince(at time.Time) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, ts := range o.arrived {
		if len(ts) == 0 || !ts[len(ts)-1].After(at) {
			return false
		}
	}
	return true
}

// lastProducer is the producer id of the latest record partition p
// received, -1 before any.
func (o *outputTail) lastProducer(p int) int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	if ids := o.producer[p]; len(ids) > 0 {
		return ids[len(ids)-1]
	}
	return -1
}

// firstAfter returns when partition p first received, after at, a record
// that producer other did not write, and whether it has. Under
// exactly_once_v2 each stream thread writes with a producer of its own, so
// this is the first output of a partition's new owner, however soon after
// at its old owner's last transaction became visible.
func (o *outputTail) firstAfter(p int, at time.Time, other int64) (time.Time, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i, a := range o.arrived[p] {
		if a.After(at) && o.producer[p][i] != other {
			return a, true
		}
	}
	return time.Time{}, false
}

func (o *outputTail) snapshot() [][]time.Time {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([][]time.Time, len(o.arrived))
	for i, ts := range o.arrived {
		out[i] = append([]time.Time(nil), ts...)
	}
	return out
}

func (o *outputTail) close() {
	o.cancel()
	<-o.done
}
