package streams_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/assignment"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/state/rocksdb"
	"github.com/stoatflow/stoatflow/streams"
)

// standbyConfig is appConfig with one standby replica per stateful task,
// without static membership: an instance that stops leaves the group at
// once, and the other takes its tasks without waiting out its session.
func standbyConfig(t *testing.T, addr, app, dir string) *compat.Config {
	t.Helper()
	return appConfig(t, addr, app, dir, "num.standby.replicas=1", compat.StaticMembershipConfig+"=false")
}

// standbyHooks records an instance's restores and standby updates.
type standbyHooks struct {
	streams.NoHooks
	mu       sync.Mutex
	started  map[int32]bool  // changelog partition → a restore started
	full     map[int32]bool  // changelog partition → its last restore was full
	restored map[int32]int64 // changelog partition → records restored
	updates  int64           // standby records applied
}

func newStandbyHooks() *standbyHooks {
	h := &standbyHooks{}
	h.reset()
	return h
}

func (h *standbyHooks) reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.started, h.full, h.restored, h.updates = map[int32]bool{}, map[int32]bool{}, map[int32]int64{}, 0
}

func (h *standbyHooks) OnRestoreStart(_ string, tp state.TopicPartition, _, _ int64, full bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.started[tp.Partition], h.full[tp.Partition] = true, full
}

func (h *standbyHooks) OnRestoreEnd(_ string, tp state.TopicPartition, total int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.restored[tp.Partition] += total
}

func (h *standbyHooks) OnStandbyUpdate(_ int, _ kstreams.TaskID, _ string, n int, _ int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.updates += int64(n)
}

func (h *standbyHooks) OnStandbyClosed(int, kstreams.TaskID) {}

// countsOf reads the "counts" store partitions given, by partition.
func countsOf(t *testing.T, stores []streams.LocalStore) map[int32]map[string]int64 {
	t.Helper()
	out := map[int32]map[string]int64{}
	for _, ls := range stores {
		kv, ok := ls.Store.(state.KeyValueStore)
		if !ok {
			t.Fatalf("store counts partition %d is a %T", ls.Partition, ls.Store)
		}
		out[ls.Partition] = readCounts16(t, kv)
	}
	return out
}

// readCounts16 reads a timestamped Long count store's committed counts.
func readCounts16(t *testing.T, kv state.KeyValueStore) map[string]int64 {
	t.Helper()
	m := map[string]int64{}
	it, err := kv.ReadOnly(state.ReadCommitted).All()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	for it.Next() {
		v := it.Value()
		if len(v) != 16 { // timestamp ++ Long
			t.Fatalf("count of %q: value of %d bytes", it.Key(), len(v))
		}
		m[string(it.Key())] = int64(binary.BigEndian.Uint64(v[8:]))
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return m
}

func partitionsOf(stores []streams.LocalStore) map[int32]state.Store {
	out := map[int32]state.Store{}
	for _, ls := range stores {
		out[ls.Partition] = ls.Store
	}
	return out
}

// replicated reports whether each of the n counts partitions is active on
// one of the instances and standby on the other.
func replicated(n int32, a, b *streams.KafkaStreams) bool {
	actA, actB := partitionsOf(a.LocalStores("counts")), partitionsOf(b.LocalStores("counts"))
	sbA, sbB := partitionsOf(streams.StandbyStores(a, "counts")), partitionsOf(streams.StandbyStores(b, "counts"))
	for p := range n {
		if !(actA[p] != nil && sbB[p] != nil && actB[p] == nil && sbA[p] == nil) &&
			!(actB[p] != nil && sbA[p] != nil && actA[p] == nil && sbB[p] == nil) {
			return false
		}
	}
	return true
}

// standbysMatchActives reports whether every standby partition of either
// instance holds what the other's active partition has committed.
func standbysMatchActives(t *testing.T, a, b *streams.KafkaStreams) bool {
	t.Helper()
	for _, pair := range [][2]*streams.KafkaStreams{{a, b}, {b, a}} {
		act := countsOf(t, pair[0].LocalStores("counts"))
		for p, sb := range countsOf(t, streams.StandbyStores(pair[1], "counts")) {
			if fmt.Sprint(sb) != fmt.Sprint(act[p]) {
				return false
			}
		}
	}
	return true
}

// changelogLengths counts the records of the counts changelog per
// partition.
func changelogLengths(t *testing.T, addr, app string, n int) map[int32]int {
	t.Helper()
	recs, err := testkafka.ReadCommitted(addr, app+"-counts-changelog", n, time.Minute, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int32]int{}
	for _, r := range recs {
		out[r.Partition]++
	}
	return out
}

// TestKfakeStandbyFollowsItsActiveAndTakesOverWithTheTail: two instances
// with num.standby.replicas=1 run the word count; each counts partition is
// active on one and standby on the other, and each standby's store comes
// to hold what its active's store holds. The first instance stops
// abruptly (Close with a context that has ended: its final commit is cut
// short); the other makes its standbys active with their stores open and
// replays only the changelogs' tails, far fewer records than the
// changelogs hold, and counting goes on exactly once from there. The first
// instance then comes back on its state directory: a task moves back to
// it, and the instance that gives it up keeps its store open as that
// task's standby.
func TestKfakeStandbyFollowsItsActiveAndTakesOverWithTheTail(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	const app = "standby"
	dirA := t.TempDir()
	hooksA, hooksB := newStandbyHooks(), newStandbyHooks()
	a := startApp(t, countTopology(t, "in", "out"), standbyConfig(t, addr, app, dirA), streams.WithHooks(hooksA))
	b := startApp(t, countTopology(t, "in", "out"), standbyConfig(t, addr, app, t.TempDir()), streams.WithHooks(hooksB))
	waitFor(t, time.Minute, "each counts partition active on one instance and standby on the other", func() bool { return replicated(2, a, b) })

	const n1 = 3000
	words(t, addr, "in", 0, n1, vocab)
	checkCounts(t, readCounts(t, addr, "out", n1), wantCounts(n1, vocab))
	waitFor(t, time.Minute, "the standbys to hold their actives' counts", func() bool { return standbysMatchActives(t, a, b) })
	if hooksA.updates+hooksB.updates < n1/2 {
		t.Errorf("the standbys applied %d changelog records, want about %d", hooksA.updates+hooksB.updates, n1)
	}

	promoted := partitionsOf(streams.StandbyStores(b, "counts"))
	if len(promoted) == 0 {
		t.Fatal("the second instance holds no standby")
	}
	hooksB.reset()
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	_ = a.Close(ended)
	select {
	case <-a.Done():
	case <-time.After(time.Minute):
		t.Fatal("the first instance did not stop")
	}
	waitFor(t, time.Minute, "the second instance to run every counts partition", func() bool {
		return len(b.LocalStores("counts")) == 2 && len(streams.StandbyStores(b, "counts")) == 0
	})
	lengths := changelogLengths(t, addr, app, n1)
	hooksB.mu.Lock()
	for p, st := range promoted {
		if !hooksB.started[p] || hooksB.full[p] {
			t.Errorf("promoted partition %d: restore started %v, full %v; want a restore from the standby's offset", p, hooksB.started[p], hooksB.full[p])
		}
		if hooksB.restored[p] > int64(lengths[p]/10) {
			t.Errorf("promoted partition %d replayed %d records of a changelog of %d", p, hooksB.restored[p], lengths[p])
		}
		if now := partitionsOf(b.LocalStores("counts"))[p]; now != st {
			t.Errorf("promoted partition %d runs on a store other than its standby's: it was closed and reopened", p)
		}
		t.Logf("partition %d made active from its standby: replayed %d records of a changelog of %d", p, hooksB.restored[p], lengths[p])
	}
	hooksB.mu.Unlock()

	const n2 = 300
	words(t, addr, "in", n1, n2, vocab)
	checkCounts(t, readCounts(t, addr, "out", n1+n2), wantCounts(n1+n2, vocab))

	// The first instance comes back on its state directory, behind by the
	// n2 records: it is caught up, and takes a task back.
	active := partitionsOf(b.LocalStores("counts"))
	hooksA2 := newStandbyHooks()
	a2 := startApp(t, countTopology(t, "in", "out"), standbyConfig(t, addr, app, dirA), streams.WithHooks(hooksA2))
	waitFor(t, time.Minute, "the tasks to be shared again, with standbys", func() bool { return replicated(2, a2, b) })
	moved := 0
	standbyB := partitionsOf(streams.StandbyStores(b, "counts"))
	for p := range partitionsOf(a2.LocalStores("counts")) {
		moved++
		if standbyB[p] != active[p] {
			t.Errorf("partition %d moved back: its standby on the instance that gave it up is another store than the one it ran on (closed and reopened)", p)
		}
	}
	if moved == 0 {
		t.Errorf("no task moved back to the instance that came back caught up")
	}
	hooksA2.mu.Lock()
	if read := hooksA2.updates + hooksA2.restored[0] + hooksA2.restored[1]; read > n2 {
		t.Errorf("the instance that came back read %d changelog records, want at most the %d it missed", read, n2)
	}
	hooksA2.mu.Unlock()
	const n3 = 200
	words(t, addr, "in", n1+n2, n3, vocab)
	checkCounts(t, readCounts(t, addr, "out", n1+n2+n3), wantCounts(n1+n2+n3, vocab))
	waitFor(t, time.Minute, "the standbys to hold their actives' counts again", func() bool { return standbysMatchActives(t, a2, b) })
	closeApp(t, a2)
	closeApp(t, b)
}

var errStopStandby = errors.New("test: standby stopped in the middle of its reads")

// TestKfakeStandbyStoppedMidBatchHoldsNothingPastItsOffset: a standby's
// thread stops between reading a batch and writing it (the batch is never
// written) while its active goes on. Reopened from disk, each standby
// store holds exactly the changelog up to the offset it holds: at or
// behind what was read, never ahead of its offset.
func TestKfakeStandbyStoppedMidBatchHoldsNothingPastItsOffset(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	const app = "standbystop"
	dirB := t.TempDir()
	var batches atomic.Int32
	hook := streams.WithStandbyBatchHook(func(kstreams.TaskID, string) error {
		if batches.Add(1) == 4 {
			return errStopStandby
		}
		return nil
	})
	a := startApp(t, countTopology(t, "in", "out"), standbyConfig(t, addr, app, t.TempDir()))
	b := startApp(t, countTopology(t, "in", "out"), standbyConfig(t, addr, app, dirB), hook)
	waitFor(t, time.Minute, "each counts partition active on one instance and standby on the other", func() bool { return replicated(2, a, b) })
	standbys := partitionsOf(streams.StandbyStores(b, "counts"))
	sent := 0
	for sent < 3000 && batches.Load() < 4 {
		words(t, addr, "in", sent, 150, vocab)
		sent += 150
		time.Sleep(150 * time.Millisecond)
	}
	select {
	case <-b.Done():
	case <-time.After(time.Minute):
		t.Fatalf("the standby's instance did not stop after its hook failed (%d batches)", batches.Load())
	}
	if err := b.Err(); !errors.Is(err, errStopStandby) {
		t.Fatalf("the standby's instance stopped with %v, want the hook's error", err)
	}
	words(t, addr, "in", sent, 150, vocab)
	sent += 150
	checkCounts(t, readCounts(t, addr, "out", sent), wantCounts(sent, vocab))

	recs, err := testkafka.ReadCommitted(addr, app+"-counts-changelog", sent, time.Minute, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	behind := false
	for p := range standbys {
		tp := state.TopicPartition{Topic: app + "-counts-changelog", Partition: p}
		taskDir := filepath.Join(dirB, app, state.TaskDirName(1, int(p)))
		kv, err := rocksdb.OpenKeyValue(taskDir, state.KeyValueOptions{Name: "counts", Timestamped: true}, rocksdb.Options{})
		if err != nil {
			t.Fatalf("reopening the standby store of partition %d: %v", p, err)
		}
		off, ok, err := kv.CommittedOffset(tp)
		if err != nil || !ok {
			kv.Close()
			t.Fatalf("standby store of partition %d: offset %d, %v, %v; want one", p, off, ok, err)
		}
		got := readCounts16(t, kv)
		kv.Close()
		want := map[string]int64{}
		last := int64(-1)
		for _, r := range recs {
			if r.Partition != p {
				continue
			}
			last = max(last, r.Offset)
			if r.Offset > off {
				continue
			}
			if r.Value == nil {
				delete(want, string(r.Key))
			} else {
				want[string(r.Key)] = int64(binary.BigEndian.Uint64(r.Value))
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("standby store of partition %d at offset %d holds %v, want the changelog up to that offset: %v", p, off, got, want)
		}
		behind = behind || off < last
		t.Logf("standby store of partition %d stopped at offset %d of a changelog ending at %d, holding exactly the changelog up to it", p, off, last)
	}
	if !behind {
		t.Errorf("no standby store stopped behind its changelog: the stop did not happen mid-way")
	}
	closeApp(t, a)
}

// TestKfakeRestartedInstanceReportsItsTaskDirectories: an instance that
// starts on a state directory an earlier run left reports, in its first
// subscription, before any task is opened, the offset sum of every
// stateful task directory there: the sum of its stores' committed changelog
// offsets, as Kafka Streams reports the task directories it finds at
// start-up. Stateless tasks have no directory and are not reported.
func TestKfakeRestartedInstanceReportsItsTaskDirectories(t *testing.T) {
	c, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	const app = "dirsums"
	dir := t.TempDir()
	a := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, app, dir))
	words(t, addr, "in", 0, 500, vocab)
	checkCounts(t, readCounts(t, addr, "out", 500), wantCounts(500, vocab))
	closeApp(t, a)

	want := map[assignment.TaskID]int64{}
	for p := range int32(2) {
		tp := state.TopicPartition{Topic: app + "-counts-changelog", Partition: p}
		taskDir := filepath.Join(dir, app, state.TaskDirName(1, int(p)))
		kv, err := rocksdb.OpenKeyValue(taskDir, state.KeyValueOptions{Name: "counts", Timestamped: true}, rocksdb.Options{})
		if err != nil {
			t.Fatal(err)
		}
		off, ok, err := kv.CommittedOffset(tp)
		kv.Close()
		if err != nil || !ok {
			t.Fatalf("store of partition %d: offset %d, %v, %v", p, off, ok, err)
		}
		want[assignment.TaskID{Subtopology: 1, Partition: p}] = off
	}

	var mu sync.Mutex
	var first map[assignment.TaskID]int64
	c.ControlKey(int16(kmsg.JoinGroup), func(req kmsg.Request) (kmsg.Response, error, bool) {
		for _, p := range req.(*kmsg.JoinGroupRequest).Protocols {
			if p.Name != "stream" {
				continue
			}
			md, err := assignment.DecodeMemberMetadata(p.Metadata)
			if err != nil {
				t.Errorf("subscription does not decode: %v", err)
				continue
			}
			mu.Lock()
			if first == nil {
				first = map[assignment.TaskID]int64{}
				for _, o := range md.Info.OffsetSums() {
					first[o.Task] = o.OffsetSum
				}
			}
			mu.Unlock()
		}
		return nil, nil, false
	})
	a = startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, app, dir))
	mu.Lock()
	got := first
	mu.Unlock()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the restarted instance's first subscription reports offset sums %v, want its task directories' %v", got, want)
	}
	closeApp(t, a)
}

// rawStore reads a key-value store partition's committed entries.
func rawStore(t *testing.T, s state.Store) map[string]string {
	t.Helper()
	kv, ok := s.(state.KeyValueStore)
	if !ok {
		t.Fatalf("store is a %T", s)
	}
	out := map[string]string{}
	it, err := kv.ReadOnly(state.ReadCommitted).All()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	for it.Next() {
		out[string(it.Key())] = string(it.Value())
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestKfakeStandbyOfASourceTableReadsUpToTheCommittedOffset: under
// reuse.ktable.source.topics a table's store has no changelog of its own,
// and its standby reads the table's source topic, as Kafka Streams'
// standbys do, but only up to the group's committed offset: rows the
// active task has not processed and committed yet (it is paused) do not
// reach the standby; once it has, they do.
func TestKfakeStandbyOfASourceTableReadsUpToTheCommittedOffset(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 1, "tbl", "in", "out")
	rec := func(k, v string) testkafka.Record {
		return testkafka.Record{Topic: "tbl", Partition: 0, Key: []byte(k), Value: []byte(v)}
	}
	cfg := func() *compat.Config {
		return appConfig(t, addr, "reusesb", t.TempDir(), "topology.optimization=reuse.ktable.source.topics",
			"num.standby.replicas=1", compat.StaticMembershipConfig+"=false")
	}
	a := startApp(t, reuseTopology(t), cfg())
	b := startApp(t, reuseTopology(t), cfg())
	var active, standby *streams.KafkaStreams
	waitFor(t, time.Minute, "the table's task active on one instance and standby on the other", func() bool {
		for _, pair := range [][2]*streams.KafkaStreams{{a, b}, {b, a}} {
			if len(pair[0].LocalStores("prices")) == 1 && len(streams.StandbyStores(pair[1], "prices")) == 1 {
				active, standby = pair[0], pair[1]
				return true
			}
		}
		return false
	})
	same := func() bool {
		return fmt.Sprint(rawStore(t, active.LocalStores("prices")[0].Store)) ==
			fmt.Sprint(rawStore(t, streams.StandbyStores(standby, "prices")[0].Store))
	}
	testkafka.Produce(t, addr, rec("apple", "1"), rec("pear", "2"), rec("apple", "3"))
	waitFor(t, time.Minute, "the standby to hold the table's rows", func() bool {
		return len(rawStore(t, active.LocalStores("prices")[0].Store)) == 2 && same()
	})

	active.Pause()
	time.Sleep(300 * time.Millisecond) // a commit in flight lands
	testkafka.Produce(t, addr, rec("plum", "4"))
	time.Sleep(time.Second) // several of the standby's reads and refreshes of its bound
	if rows := rawStore(t, streams.StandbyStores(standby, "prices")[0].Store); len(rows) != 2 {
		t.Fatalf("the standby holds %d rows while the active task has not processed the third: it read past the committed offset", len(rows))
	}
	active.Resume()
	waitFor(t, time.Minute, "the standby to hold the row the active task processed", func() bool {
		return len(rawStore(t, active.LocalStores("prices")[0].Store)) == 3 && same()
	})
	closeApp(t, a)
	closeApp(t, b)
}

// TestKfakeStandbysWithSeveralThreads: two instances of two stream threads
// each, with standbys, over four partitions. A task whose standby one
// thread holds may become active on the instance's other thread, which
// then waits for the first to close the standby before it opens the
// task's stores. Counting stays exactly once as one instance stops, the
// other runs everything, and the first comes back.
func TestKfakeStandbysWithSeveralThreads(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 4, "in", "out")
	const app = "standbythreads"
	cfg := func(dir string) *compat.Config {
		return appConfig(t, addr, app, dir, "num.standby.replicas=1", "num.stream.threads=2", compat.StaticMembershipConfig+"=false")
	}
	dirA := t.TempDir()
	a := startApp(t, countTopology(t, "in", "out"), cfg(dirA))
	b := startApp(t, countTopology(t, "in", "out"), cfg(t.TempDir()))
	waitFor(t, time.Minute, "each counts partition active on one instance and standby on the other", func() bool { return replicated(4, a, b) })
	words(t, addr, "in", 0, 1000, vocab)
	checkCounts(t, readCounts(t, addr, "out", 1000), wantCounts(1000, vocab))
	waitFor(t, time.Minute, "the standbys to hold their actives' counts", func() bool { return standbysMatchActives(t, a, b) })

	closeApp(t, a)
	waitFor(t, time.Minute, "the second instance to run every counts partition", func() bool { return len(b.LocalStores("counts")) == 4 })
	words(t, addr, "in", 1000, 300, vocab)
	checkCounts(t, readCounts(t, addr, "out", 1300), wantCounts(1300, vocab))

	a = startApp(t, countTopology(t, "in", "out"), cfg(dirA))
	waitFor(t, time.Minute, "the tasks to be shared again, with standbys", func() bool { return replicated(4, a, b) })
	words(t, addr, "in", 1300, 300, vocab)
	checkCounts(t, readCounts(t, addr, "out", 1600), wantCounts(1600, vocab))
	waitFor(t, time.Minute, "the standbys to hold their actives' counts again", func() bool { return standbysMatchActives(t, a, b) })
	closeApp(t, a)
	closeApp(t, b)
}
