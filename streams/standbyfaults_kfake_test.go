package streams_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
)

// stallFetches makes the broker refuse every fetch of topic with a
// retriable error until the returned handle is removed: the restore
// consumers that read it (standbys, restores) stand still, the rest of the
// application runs on.
func stallFetches(c *kfake.Cluster, topic string) *kfake.FaultHandle {
	return c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Fetch}, Topic: topic, Err: kerr.NotLeaderForPartition, Count: -1})
}

// waitStalled waits until the stall has refused a few fetches: whatever
// fetch was in flight when it was installed has come back.
func waitStalled(t *testing.T, h *kfake.FaultHandle) {
	t.Helper()
	waitFor(t, 30*time.Second, "the changelog's fetches to be refused", func() bool { return h.Hits() >= 3 })
}

// waitCommitted waits until the counts ks runs have committed n words in
// all.
func waitCommitted(t *testing.T, ks *streams.KafkaStreams, n int) {
	t.Helper()
	waitFor(t, 30*time.Second, fmt.Sprintf("%d words counted and committed", n), func() bool {
		total := int64(0)
		for _, c := range storeCounts(t, ks, state.ReadCommitted) {
			total += c
		}
		return total == int64(n)
	})
}

// activeAndStandby returns, of two instances running the word count over
// one partition, the one that runs the counts task and the one that holds
// its standby, once they are placed so.
func activeAndStandby(t *testing.T, a, b *streams.KafkaStreams) (active, standby *streams.KafkaStreams) {
	t.Helper()
	waitFor(t, time.Minute, "the counts task active on one instance and standby on the other", func() bool { return replicated(1, a, b) })
	if len(a.LocalStores("counts")) == 1 {
		return a, b
	}
	return b, a
}

// changelogContent reads a count store's changelog partition from its log
// start until it holds want records: each key's last count (a tombstone
// removes the key), what a store restored from it holds.
func changelogContent(t *testing.T, addr, topic string, partition int32, want int) map[string]int64 {
	t.Helper()
	recs, err := testkafka.ReadCommitted(addr, topic, want, time.Minute, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, r := range recs {
		switch {
		case r.Partition != partition:
		case r.Value == nil:
			delete(out, string(r.Key))
		default:
			out[string(r.Key)] = int64(binary.BigEndian.Uint64(r.Value))
		}
	}
	return out
}

// standbyCounts reads the committed counts of the counts standby an
// instance holds for partition 0; nil while it holds none, or when the
// store it found closed meanwhile (the standby emptied it).
func standbyCounts(t *testing.T, ks *streams.KafkaStreams) map[string]int64 {
	t.Helper()
	sb := partitionsOf(streams.StandbyStores(ks, "counts"))[0]
	if sb == nil {
		return nil
	}
	kv, ok := sb.(state.KeyValueStore)
	if !ok {
		t.Fatalf("standby store counts is a %T", sb)
	}
	m, err := counts16(kv)
	if errors.Is(err, state.ErrClosed) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// counts16 reads a timestamped Long count store's committed counts.
func counts16(kv state.KeyValueStore) (map[string]int64, error) {
	it, err := kv.ReadOnly(state.ReadCommitted).All()
	if err != nil {
		return nil, err
	}
	defer it.Close()
	m := map[string]int64{}
	for it.Next() {
		v := it.Value()
		if len(v) != 16 { // timestamp ++ Long
			return nil, fmt.Errorf("count of %q: value of %d bytes", it.Key(), len(v))
		}
		m[string(it.Key())] = int64(binary.BigEndian.Uint64(v[8:]))
	}
	return m, it.Err()
}

// logLine returns the first line of log that holds msg, "" when none does.
func logLine(log, msg string) string {
	for line := range strings.Lines(log) {
		if strings.Contains(line, msg) {
			return line
		}
	}
	return ""
}

// checkLogNames checks that log has a line saying msg and that it holds
// each of attrs (key=value).
func checkLogNames(t *testing.T, log, msg string, attrs ...string) {
	t.Helper()
	line := logLine(log, msg)
	if line == "" {
		t.Errorf("the log does not say %q:\n%s", msg, log)
		return
	}
	for _, a := range attrs {
		if !strings.Contains(line, a) {
			t.Errorf("the log line %q does not name %s", strings.TrimSpace(line), a)
		}
	}
}

func warnLogger(buf *lockedBuffer) streams.Option {
	return streams.WithLogger(slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelWarn})))
}

// TestKfakeStandbyBehindATruncatedChangelogReadsItFromTheLogStart: the
// records a standby was to read next are deleted from its changelog
// (DeleteRecords, as retention deletes a segment), first while the standby
// runs behind (its fetches stalled), then while its instance is stopped.
// Each time, as Kafka Streams' changelog reader marks the standby corrupted
// and wipes it, the standby empties its store and reads the changelog from
// the log start: its store ends up holding exactly what the changelog
// holds (the words of the deleted records gone from it), and the log says
// why, naming the store, the task and the changelog. The instance does not
// fail, and the active task counts on exactly once.
func TestKfakeStandbyBehindATruncatedChangelogReadsItFromTheLogStart(t *testing.T) {
	c, addr := startBroker(t)
	createTopics(t, addr, 1, "in", "out")
	const app = "sbtrunc"
	changelog := app + "-counts-changelog"
	names := []string{"store=counts", "task=1_0", "changelog=" + changelog + "-0"}
	var logA, logB lockedBuffer
	dirs := map[*streams.KafkaStreams]string{}
	dirA, dirB := t.TempDir(), t.TempDir()
	a := startApp(t, countTopology(t, "in", "out"), standbyConfig(t, addr, app, dirA), warnLogger(&logA))
	b := startApp(t, countTopology(t, "in", "out"), standbyConfig(t, addr, app, dirB), warnLogger(&logB))
	dirs[a], dirs[b] = dirA, dirB
	logs := map[*streams.KafkaStreams]*lockedBuffer{a: &logA, b: &logB}
	active, standby := activeAndStandby(t, a, b)
	sent := 0
	produce := func(n int) {
		t.Helper()
		words(t, addr, "in", sent, n, vocab)
		sent += n
		waitCommitted(t, active, sent)
	}
	produce(500)
	waitFor(t, time.Minute, "the standby to hold its active's counts", func() bool { return standbysMatchActives(t, a, b) })

	// The standby runs behind: its fetches are refused while the active
	// task counts 300 more words; then the changelog is emptied up to its
	// end, and 4 words follow.
	stall := stallFetches(c, changelog)
	waitStalled(t, stall)
	produce(300)
	if err := c.DeleteRecords(changelog, 0, -1); err != nil {
		t.Fatal(err)
	}
	produce(4)
	stall.Remove()
	want := changelogContent(t, addr, changelog, 0, 4)
	if len(want) != 4 {
		t.Fatalf("the changelog holds %v past its log start, want 4 words", want)
	}
	waitFor(t, 30*time.Second, "the standby to hold what its changelog holds", func() bool {
		return fmt.Sprint(standbyCounts(t, standby)) == fmt.Sprint(want)
	})
	checkLogNames(t, logs[standby].String(), "the changelog no longer holds the records a standby was to read next", names...)
	if len(storeCounts(t, active, state.ReadCommitted)) != len(vocab) {
		t.Errorf("the active store lost words: %v", storeCounts(t, active, state.ReadCommitted))
	}

	// The standby's instance stops; while it is away the changelog is
	// emptied again and 2 words follow. It comes back on its state
	// directory, its store's offset older than the log start.
	closeApp(t, standby)
	produce(200)
	if err := c.DeleteRecords(changelog, 0, -1); err != nil {
		t.Fatal(err)
	}
	produce(2)
	var logBack lockedBuffer
	back := startApp(t, countTopology(t, "in", "out"), standbyConfig(t, addr, app, dirs[standby]), warnLogger(&logBack))
	if act, sb := activeAndStandby(t, active, back); act != active || sb != back {
		t.Fatal("the instance that came back runs the counts task")
	}
	want = changelogContent(t, addr, changelog, 0, 2)
	if len(want) != 2 {
		t.Fatalf("the changelog holds %v past its log start, want 2 words", want)
	}
	waitFor(t, 30*time.Second, "the standby that came back to hold what its changelog holds", func() bool {
		return fmt.Sprint(standbyCounts(t, back)) == fmt.Sprint(want)
	})
	checkLogNames(t, logBack.String(), "store offset is older than its changelog's log start", names...)
	produce(100)
	checkCounts(t, readCounts(t, addr, "out", sent), wantCounts(sent, vocab))
	closeApp(t, back)
	closeApp(t, active)
	if s := logs[active].String(); strings.Contains(s, "level=ERROR") {
		t.Errorf("the active instance logged errors:\n%s", s)
	}
}

// storeHooks records, per store, the records standbys applied and the
// restores of an instance; onUpdate and onRestore, when set, see each
// standby update and restore start as they happen.
type storeHooks struct {
	streams.NoHooks
	mu       sync.Mutex
	applied  map[string]int64 // store → standby records applied
	restores map[string]*restoreSeen
	// onUpdate and onRestore run on the stream thread, without mu held.
	onUpdate  func(store string, n int)
	onRestore func(store string)
}

// restoreSeen is a store's last restore.
type restoreSeen struct {
	start, end int64
	full, done bool
	total      int64
}

func newStoreHooks() *storeHooks {
	return &storeHooks{applied: map[string]int64{}, restores: map[string]*restoreSeen{}}
}

func (h *storeHooks) OnStandbyUpdate(_ int, _ kstreams.TaskID, store string, n int, _ int64) {
	h.mu.Lock()
	h.applied[store] += int64(n)
	f := h.onUpdate
	h.mu.Unlock()
	if f != nil {
		f(store, n)
	}
}

func (h *storeHooks) OnStandbyClosed(int, kstreams.TaskID) {}

func (h *storeHooks) OnRestoreStart(store string, _ state.TopicPartition, start, end int64, full bool) {
	h.mu.Lock()
	h.restores[store] = &restoreSeen{start: start, end: end, full: full}
	f := h.onRestore
	h.mu.Unlock()
	if f != nil {
		f(store)
	}
}

func (h *storeHooks) OnRestoreEnd(store string, _ state.TopicPartition, total int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r := h.restores[store]; r != nil {
		r.done, r.total = true, total
	}
}

// standbyApplied is what standbys applied to store so far.
func (h *storeHooks) standbyApplied(store string) int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.applied[store]
}

// restore is store's last restore, nil for none.
func (h *storeHooks) restore(store string) *restoreSeen {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r := h.restores[store]; r != nil {
		c := *r
		return &c
	}
	return nil
}

// twoStoresTopology counts the records of each key of "in" in store
// "counts", written to "out", and sums the lengths of their values in
// store "sums", written to "sums-out": two logged stores in one task.
func twoStoresTopology(t *testing.T) *kstreams.Topology {
	t.Helper()
	b := kstreams.NewStreamsBuilder()
	lens := kstreams.MapValues(kstreams.Stream[string, string](b, []string{"in"}), func(v string) int64 { return int64(len(v)) })
	g := lens.GroupByKey(kstreams.Grouped[string, int64]{KeySerde: serde.String{}, ValueSerde: serde.Long{}})
	g.Count(kstreams.Materialized[string, int64]{Name: "counts", ValueSerde: serde.Long{}}).
		ToStream().To("out", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	g.Reduce(func(agg, v int64) int64 { return agg + v }, kstreams.Materialized[string, int64]{Name: "sums", ValueSerde: serde.Long{}}).
		ToStream().To("sums-out", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

// keyedWords produces n records to "in" from the from-th on, the i-th
// keyed and valued vocab[i%len(vocab)].
func keyedWords(t *testing.T, addr string, from, n int) {
	t.Helper()
	recs := make([]testkafka.Record, 0, n)
	for i := from; i < from+n; i++ {
		w := vocab[i%len(vocab)]
		recs = append(recs, testkafka.Record{Topic: "in", Partition: 0, Key: []byte(w), Value: []byte(w)})
	}
	testkafka.Produce(t, addr, recs...)
}

// storesMatch reports whether the standby store partition 0 named name
// that standby holds has what active's running one has committed.
func storesMatch(t *testing.T, active, standby *streams.KafkaStreams, name string) bool {
	t.Helper()
	act := partitionsOf(active.LocalStores(name))[0]
	sb := partitionsOf(streams.StandbyStores(standby, name))[0]
	if act == nil || sb == nil {
		return false
	}
	a, err1 := counts16(act.(state.KeyValueStore))
	b, err2 := counts16(sb.(state.KeyValueStore))
	if errors.Is(err1, state.ErrClosed) || errors.Is(err2, state.ErrClosed) {
		return false
	}
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// TestKfakeCorruptedStandbyStoreIsRebuiltAloneFromItsChangelog: the task
// directory of a stopped instance's standby holds two stores; one of them
// has its files corrupted (its MANIFEST overwritten with garbage). When
// the instance comes back and gets the standby again, the corrupted store
// is deleted and read from its changelog's start, and the log says so,
// naming the task and the store; the other store is kept and reads on
// from its offset, only the records it missed. Both end up holding what
// the active task's stores hold.
func TestKfakeCorruptedStandbyStoreIsRebuiltAloneFromItsChangelog(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 1, "in", "out", "sums-out")
	const app = "sbcorrupt"
	dirA, dirB := t.TempDir(), t.TempDir()
	a := startApp(t, twoStoresTopology(t), standbyConfig(t, addr, app, dirA))
	b := startApp(t, twoStoresTopology(t), standbyConfig(t, addr, app, dirB))
	dirs := map[*streams.KafkaStreams]string{a: dirA, b: dirB}
	active, standby := activeAndStandby(t, a, b)
	keyedWords(t, addr, 0, 300)
	checkCounts(t, readCounts(t, addr, "out", 300), wantCounts(300, vocab))
	waitFor(t, 30*time.Second, "the standby to hold its active's stores", func() bool {
		return storesMatch(t, active, standby, "counts") && storesMatch(t, active, standby, "sums")
	})
	closeApp(t, standby)

	taskDir := filepath.Join(dirs[standby], app, state.TaskDirName(0, 0))
	manifests, _ := filepath.Glob(filepath.Join(state.KeyValueDir(taskDir, "counts"), "MANIFEST-*"))
	if len(manifests) == 0 {
		t.Fatalf("no MANIFEST in the standby's counts store under %s", taskDir)
	}
	for _, f := range manifests {
		if err := os.WriteFile(f, []byte("not a manifest at all"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	keyedWords(t, addr, 300, 200) // the kept store misses these only
	checkCounts(t, readCounts(t, addr, "out", 500), wantCounts(500, vocab))

	var log lockedBuffer
	hooks := newStoreHooks()
	back := startApp(t, twoStoresTopology(t), standbyConfig(t, addr, app, dirs[standby]), warnLogger(&log), streams.WithHooks(hooks))
	if act, sb := activeAndStandby(t, active, back); act != active || sb != back {
		t.Fatal("the instance that came back runs the task")
	}
	// The hooks hear of a standby's batch after the store holds it: the
	// wait covers both.
	waitFor(t, 30*time.Second, "the standby's stores to hold their active's again", func() bool {
		return storesMatch(t, active, back, "counts") && storesMatch(t, active, back, "sums") &&
			hooks.standbyApplied("counts") >= 500 && hooks.standbyApplied("sums") >= 200
	})
	checkLogNames(t, log.String(), "store files are corrupted; deleting them and restoring the store from its changelog",
		"task=0_0", "store=counts")
	if strings.Contains(log.String(), "store=sums") {
		t.Errorf("the log names the store that was not corrupted:\n%s", log.String())
	}
	if n := hooks.standbyApplied("counts"); n != 500 {
		t.Errorf("the corrupted store's standby applied %d changelog records, want all 500 of its changelog", n)
	}
	if n := hooks.standbyApplied("sums"); n != 200 {
		t.Errorf("the kept store's standby applied %d changelog records, want the 200 it missed", n)
	}
	keyedWords(t, addr, 500, 100)
	checkCounts(t, readCounts(t, addr, "out", 600), wantCounts(600, vocab))
	closeApp(t, back)
	closeApp(t, active)
}

// TestKfakeStandbyPromotedFarBehindRestoresOnlyTheRest: an instance joins
// a task whose changelog holds 2400 records; its standby reads a part of
// it and then stands still (its fetches refused). The task's active
// instance stops, and the standby becomes the active task with its store
// open, as Kafka Streams' TaskManager recycles a standby: its restore
// starts right past the standby's offset, not in full, and applies only
// the rest, so that what the standby applied and what the restore applied
// add up to the changelog exactly, no record twice and none lost. Counting
// goes on from there exactly once.
func TestKfakeStandbyPromotedFarBehindRestoresOnlyTheRest(t *testing.T) {
	c, addr := startBroker(t)
	createTopics(t, addr, 1, "in", "out")
	const app = "sbpromote"
	changelog := app + "-counts-changelog"
	// Below acceptable.recovery.lag (10000 records by default), the
	// joining instance would count as caught up and could be given the
	// active task at once. Small fetches let the standby read the
	// changelog one batch at a time.
	cfg := func() *compat.Config {
		return appConfig(t, addr, app, t.TempDir(), "num.standby.replicas=1", compat.StaticMembershipConfig+"=false",
			"acceptable.recovery.lag=100", "restore.consumer.max.partition.fetch.bytes=1024")
	}
	a := startApp(t, countTopology(t, "in", "out"), cfg())
	// The words go in chunks, each committed before the next is sent: the
	// changelog is written in as many small transactions.
	const n1, chunk = 2400, 200
	for sent := 0; sent < n1; sent += chunk {
		words(t, addr, "in", sent, chunk, vocab)
		waitCommitted(t, a, sent+chunk)
	}
	checkCounts(t, readCounts(t, addr, "out", n1), wantCounts(n1, vocab))

	// The joining instance's standby fetches a few small batches, then
	// stands still until its task's restore begins.
	hooks := newStoreHooks()
	var mu sync.Mutex
	var stall *kfake.FaultHandle
	hooks.onUpdate = func(_ string, n int) {
		mu.Lock()
		defer mu.Unlock()
		if n > 0 && stall == nil {
			stall = stallFetches(c, changelog)
		}
	}
	hooks.onRestore = func(string) {
		mu.Lock()
		defer mu.Unlock()
		if stall != nil {
			stall.Remove()
		}
	}
	b := startApp(t, countTopology(t, "in", "out"),
		cfg(), streams.WithHooks(hooks))
	if act, sb := activeAndStandby(t, a, b); act != a || sb != b {
		t.Fatal("the joining instance runs the counts task")
	}
	waitFor(t, 30*time.Second, "the standby to stand still", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return stall != nil && stall.Hits() >= 3
	})
	standbyStore := partitionsOf(streams.StandbyStores(b, "counts"))[0]
	tp := state.TopicPartition{Topic: changelog, Partition: 0}
	off, ok, err := standbyStore.CommittedOffset(tp)
	if err != nil || !ok {
		t.Fatalf("the standby's store holds offset %d, %v, %v; want one", off, ok, err)
	}
	applied := hooks.standbyApplied("counts")
	if applied <= 0 || applied > n1/2 {
		t.Fatalf("the standby applied %d of %d changelog records before it stood still; want a part", applied, n1)
	}

	closeApp(t, a)
	waitFor(t, 30*time.Second, "the joining instance to run the counts task", func() bool {
		return len(b.LocalStores("counts")) == 1 && len(streams.StandbyStores(b, "counts")) == 0
	})
	if partitionsOf(b.LocalStores("counts"))[0] != standbyStore {
		t.Errorf("the task runs on another store than its standby's: the standby's was closed and reopened")
	}
	r := hooks.restore("counts")
	switch {
	case r == nil || !r.done:
		t.Fatalf("the promoted task's store did not restore: %+v", r)
	case r.full || r.start != off+1:
		t.Errorf("the promoted task's restore started at %d (full %v), want right past the standby's offset %d", r.start, r.full, off)
	}
	if got := applied + r.total; got != n1 {
		t.Errorf("the standby applied %d changelog records and the restore %d: %d in all, want the changelog's %d", applied, r.total, got, n1)
	}
	t.Logf("the standby applied %d of %d records; the promoted task restored %d from offset %d", applied, n1, r.total, r.start)
	want := changelogContent(t, addr, changelog, 0, n1)
	if got := storeCounts(t, b, state.ReadCommitted); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the promoted task's store holds %v, want its changelog's %v", got, want)
	}
	const n2 = 300
	words(t, addr, "in", n1, n2, vocab)
	checkCounts(t, readCounts(t, addr, "out", n1+n2), wantCounts(n1+n2, vocab))
	closeApp(t, b)
}

// TestKfakeRestoreBehindATruncatedChangelogRestoresFromTheLogStart: an
// active task's restore whose changelog is deleted past its position (an
// operator's DeleteRecords, or retention) empties the store and restores
// from the new log start, logged with store, task and changelog, as Kafka
// Streams turns a task corrupted and restores it from scratch; the
// instance does not stop.
func TestKfakeRestoreBehindATruncatedChangelogRestoresFromTheLogStart(t *testing.T) {
	c, addr := startBroker(t)
	createTopics(t, addr, 1, "in", "out")
	const app = "restrunc"
	changelog := app + "-counts-changelog"
	first := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, app, t.TempDir()))
	words(t, addr, "in", 0, 500, vocab)
	waitCommitted(t, first, 500)
	closeApp(t, first)

	// A new instance on an empty state directory restores the changelog
	// from its start; its fetches are refused until the changelog has
	// been deleted up to its end.
	stall := stallFetches(c, changelog)
	truncated := make(chan error, 1)
	go func() {
		deadline := time.Now().Add(30 * time.Second)
		for stall.Hits() < 3 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		err := c.DeleteRecords(changelog, 0, -1)
		stall.Remove()
		truncated <- err
	}()
	var log lockedBuffer
	second := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, app, t.TempDir()), warnLogger(&log))
	if err := <-truncated; err != nil {
		t.Fatal(err)
	}
	checkLogNames(t, log.String(), "the changelog no longer holds the records a restore was to read next",
		"store=counts", "task=1_0", "changelog="+changelog+"-0")
	if got := storeCounts(t, second, state.ReadCommitted); len(got) != 0 {
		t.Errorf("the store restored from an emptied changelog holds %v, want nothing", got)
	}
	words(t, addr, "in", 500, 1, vocab)
	waitFor(t, 30*time.Second, "the word after the truncation counted from 1", func() bool {
		return storeCounts(t, second, state.ReadCommitted)[vocab[500%len(vocab)]] == 1
	})
	closeApp(t, second)
}
