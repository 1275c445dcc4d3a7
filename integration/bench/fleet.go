package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// A multi-instance word count of one engine: its instances' process ids and
// restores, the steady feed of its input and the tail of its output.

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

// alive returns an error naming the first instance that exited.
func alive(procs []*proc) error {
	for _, p := range procs {
		if !p.alive() {
			return fmt.Errorf("an instance exited: %v\n%s", p.err, p.stderr.String())
		}
	}
	return nil
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
// partition, the times records arrived (one per poll that brought any).
type outputTail struct {
	mu      sync.Mutex
	arrived [][]time.Time
	cancel  context.CancelFunc
	done    chan struct{}
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
	o := &outputTail{arrived: make([][]time.Time, partitions), cancel: cancel, done: make(chan struct{})}
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
