package kstreams

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
)

// Kafka's SuppressedTest: the buffer configs the builders produce.
func TestSuppressedBuildersMatchKafka(t *testing.T) {
	const max = math.MaxInt64
	cfg := map[string]string{"myConfigKey": "myConfigValue"}
	eager := func(r, b int64, log map[string]string) bufferConfig {
		return bufferConfig{maxRecords: r, maxBytes: b, logConfig: log}
	}
	strict := func(r, b int64, log map[string]string) bufferConfig {
		return bufferConfig{maxRecords: r, maxBytes: b, shutDown: true, logConfig: log}
	}
	cases := []struct {
		name      string
		got, want bufferConfig
	}{
		{"noBound removes bounds", MaxBytes(2).WithMaxRecords(4).WithNoBound().c, Unbounded().c},
		{"keys alone", MaxRecords(2).c, eager(2, max, nil)},
		{"size alone", MaxBytes(2).c, eager(max, 2, nil)},
		{"config after max records", MaxRecords(2).WithMaxBytes(4).WithLoggingEnabled(cfg).c, eager(2, 4, cfg)},
		{"config kept by emitEarlyWhenFull", MaxRecords(2).WithLoggingEnabled(cfg).EmitEarlyWhenFull().c, eager(2, max, cfg)},
		{"strict records", MaxRecords(2).ShutDownWhenFull().c, strict(2, max, nil)},
		{"strict bytes", MaxBytes(2).ShutDownWhenFull().c, strict(max, 2, nil)},
		{"config kept by shutDownWhenFull", MaxBytes(2).WithLoggingEnabled(cfg).ShutDownWhenFull().c, strict(max, 2, cfg)},
		{"long eager chain", Unbounded().EmitEarlyWhenFull().WithMaxRecords(3).WithMaxBytes(4).WithMaxRecords(5).WithMaxBytes(6).c, eager(5, 6, nil)},
		{"long strict chain", Unbounded().EmitEarlyWhenFull().WithMaxRecords(3).WithMaxBytes(4).WithMaxRecords(5).WithMaxBytes(6).ShutDownWhenFull().c, strict(5, 6, nil)},
		{"logging first", Unbounded().WithLoggingEnabled(cfg).EmitEarlyWhenFull().WithMaxRecords(5).WithMaxBytes(6).c, eager(5, 6, cfg)},
		{"logging last", Unbounded().EmitEarlyWhenFull().WithMaxRecords(5).WithMaxBytes(6).WithLoggingEnabled(cfg).ShutDownWhenFull().c, strict(5, 6, cfg)},
		{"logging disabled", MaxRecords(1).WithLoggingDisabled().c, bufferConfig{maxRecords: 1, maxBytes: max, loggingDisabled: true}},
	}
	for _, c := range cases {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, c.got, c.want)
		}
	}
	if s := UntilTimeLimit(2*time.Millisecond, Unbounded()).WithName("myname"); s.name != "myname" || s.limit != 2*time.Millisecond || s.final {
		t.Errorf("untilTimeLimit: %+v", s)
	}
	if s := UntilTimeLimit(2*time.Millisecond, MaxRecords(3).WithMaxBytes(2)); !reflect.DeepEqual(s.buffer, eager(3, 2, nil)) {
		t.Errorf("untilTimeLimit buffer: %+v", s.buffer)
	}
	if s := UntilWindowCloses(MaxRecords(2).ShutDownWhenFull()).WithName("name"); !s.final || s.name != "name" || !reflect.DeepEqual(s.buffer, strict(2, max, nil)) {
		t.Errorf("untilWindowCloses: %+v", s)
	}
}

// suppressHarness feeds table updates straight into a suppression, as
// Kafka's KTableSuppressProcessorTest does: keys are "k" or, windowed,
// "k@start/end" (keys "time" for windows of 100 ms, "time1" of 1 ms,
// "session"); values are "new,old" with "null" for null.
type suppressHarness struct {
	t      *testing.T
	task   *Task
	store  state.KeyValueStore
	out    *collectingOutput
	got    []Record
	offset int64
}

type collectingOutput struct{ records []ProducerRecord }

func (c *collectingOutput) Send(r ProducerRecord) error { c.records = append(c.records, r); return nil }

func parseWindowed(s string) Windowed[string] {
	k, w, _ := strings.Cut(s, "@")
	a, b, _ := strings.Cut(w, "/")
	start, _ := strconv.ParseInt(a, 10, 64)
	end, _ := strconv.ParseInt(b, 10, 64)
	return Windowed[string]{Key: k, Window: Window{Start: start, End: end}}
}

func parseLong(s string) any {
	if s == "null" {
		return nil
	}
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

func newSuppressHarness(t *testing.T, p *suppressSpec, keys string, store state.KeyValueStore) *suppressHarness {
	t.Helper()
	b := NewStreamsBuilder()
	Stream(b, []string{"in"}, ConsumedWith[string, string](serde.String{}, serde.String{}))
	b.addNode(&nodeSpec{name: "changes", kind: ProcessorNode, preds: []string{"KSTREAM-SOURCE-0000000000"},
		supplier: stateless(func(ctx ProcessorContext, r Record) error {
			n, o, _ := strings.Cut(r.Value.(string), ",")
			r.Value = Change{New: parseLong(n), Old: parseLong(o)}
			if keys != "" {
				r.Key = parseWindowed(r.Key.(string))
			}
			return ctx.Forward(r)
		})})
	key := spec[string](serde.String{})
	switch keys {
	case "time":
		key.wrap = timeWindowedKey[string](100)
	case "time1":
		key.wrap = timeWindowedKey[string](1)
	case "session":
		key.wrap = sessionWindowedKey[string]()
	}
	if p.final {
		p.windowEnd, _ = windowEndOf[Windowed[string]]()
	}
	p.name, p.store = "testNode", "test-store"
	b.addNode(&nodeSpec{name: p.name, kind: ProcessorNode, preds: []string{"changes"},
		supplier: func() Processor { return &suppressProcessor{spec: p} }})
	b.fail(b.topo.addStore(&StoreSpec{Name: p.store, Kind: KeyValueStoreKind, Type: InMemory, Logging: true,
		key: key, val: spec[int64](serde.Long{}), suppressBuffer: true}))
	b.fail(b.topo.connectStore(p.name, p.store))
	h := &suppressHarness{t: t, store: store, out: &collectingOutput{}}
	b.addNode(&nodeSpec{name: "capture", kind: ProcessorNode, preds: []string{p.name},
		supplier: stateless(func(_ ProcessorContext, r Record) error { h.got = append(h.got, r); return nil })})
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if h.store == nil {
		h.store = state.NewInMemoryKeyValue(state.KeyValueOptions{Name: p.store})
	}
	h.task, err = topo.NewTask(TaskConfig{ApplicationID: "app", Stores: map[string]StateStore{p.store: h.store}, Output: h.out})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.task.Init(); err != nil {
		t.Fatal(err)
	}
	return h
}

func (h *suppressHarness) process(key, change string, ts int64, headers ...Header) error {
	h.offset++
	return h.task.Process("in", 0, h.offset-1, []byte(key), []byte(change), ts, headers)
}

func (h *suppressHarness) mustProcess(key, change string, ts int64, headers ...Header) {
	h.t.Helper()
	if err := h.process(key, change, ts, headers...); err != nil {
		h.t.Fatal(err)
	}
}

func (h *suppressHarness) expect(want ...Record) {
	h.t.Helper()
	if len(h.got) != len(want) {
		h.t.Fatalf("forwarded %+v, want %+v", h.got, want)
	}
	for i := range want {
		if !reflect.DeepEqual(h.got[i], want[i]) {
			h.t.Errorf("forwarded[%d] = %+v, want %+v", i, h.got[i], want[i])
		}
	}
}

func timeLimit(limit time.Duration, b Buffer) *suppressSpec {
	c := b.config()
	return &suppressSpec{limit: limit.Milliseconds(), maxRecords: c.maxRecords, maxBytes: c.maxBytes, shutDown: c.shutDown}
}

func finalResults(grace int64) *suppressSpec {
	c := Unbounded().c
	return &suppressSpec{limit: grace, final: true, maxRecords: c.maxRecords, maxBytes: c.maxBytes, shutDown: true}
}

var arbitrary = Change{New: int64(7), Old: int64(14)}

func win(k string, start, end int64) Windowed[string] {
	return Windowed[string]{Key: k, Window: Window{Start: start, End: end}}
}

// The cases of Kafka's KTableSuppressProcessorTest.
func TestSuppressProcessorMatchesKafka(t *testing.T) {
	t.Run("zeroTimeLimitShouldImmediatelyEmit", func(t *testing.T) {
		h := newSuppressHarness(t, timeLimit(0, Unbounded()), "", nil)
		h.mustProcess("hey", "7,14", 5)
		h.expect(Record{Key: "hey", Value: arbitrary, Timestamp: 5})
	})
	t.Run("windowedZeroTimeLimitShouldImmediatelyEmit", func(t *testing.T) {
		h := newSuppressHarness(t, timeLimit(0, Unbounded()), "time", nil)
		h.mustProcess("hey@0/100", "7,14", 5)
		h.expect(Record{Key: win("hey", 0, 100), Value: arbitrary, Timestamp: 5})
	})
	t.Run("intermediateSuppressionShouldBufferAndEmitLater", func(t *testing.T) {
		h := newSuppressHarness(t, timeLimit(time.Millisecond, Unbounded()), "", nil)
		h.mustProcess("hey", "null,1", 0)
		h.expect()
		h.mustProcess("tick", "null,null", 1)
		h.expect(Record{Key: "hey", Value: Change{Old: int64(1)}, Timestamp: 0})
	})
	t.Run("finalResultsSuppressionShouldBufferAndEmitAtGraceExpiration", func(t *testing.T) {
		h := newSuppressHarness(t, finalResults(1), "time1", nil)
		h.mustProcess("hey@99/100", "7,14", 99)
		h.expect()
		// stream time 100: the window ends at 100, but it closes 1 ms later
		h.mustProcess("dummyKey1@100/101", "7,14", 100)
		h.expect()
		h.mustProcess("dummyKey2@101/102", "7,14", 101)
		h.expect(Record{Key: win("hey", 99, 100), Value: arbitrary, Timestamp: 99})
	})
	t.Run("finalResultsWithZeroGraceShouldStillBufferUntilTheWindowEnd", func(t *testing.T) {
		h := newSuppressHarness(t, finalResults(0), "time", nil)
		h.mustProcess("hey@0/100", "7,14", 5)
		h.expect()
		h.mustProcess("dummyKey@100/200", "7,14", 100)
		h.expect(Record{Key: win("hey", 0, 100), Value: arbitrary, Timestamp: 5})
	})
	t.Run("finalResultsWithZeroGraceAtWindowEndShouldImmediatelyEmit", func(t *testing.T) {
		h := newSuppressHarness(t, finalResults(0), "time", nil)
		h.mustProcess("hey@0/100", "7,14", 100)
		h.expect(Record{Key: win("hey", 0, 100), Value: arbitrary, Timestamp: 100})
	})
	t.Run("finalResultsShouldDropTombstonesForTimeWindows", func(t *testing.T) {
		h := newSuppressHarness(t, finalResults(0), "time", nil)
		h.mustProcess("hey@0/100", "null,5", 100)
		h.expect()
	})
	t.Run("finalResultsShouldDropTombstonesForSessionWindows", func(t *testing.T) {
		h := newSuppressHarness(t, finalResults(0), "session", nil)
		h.mustProcess("hey@0/0", "null,5", 100)
		h.expect()
	})
	t.Run("suppressShouldNotDropTombstonesForTimeWindows", func(t *testing.T) {
		h := newSuppressHarness(t, timeLimit(0, MaxRecords(0)), "time", nil)
		hs := []Header{{Key: "k", Value: []byte("v")}}
		h.mustProcess("hey@0/100", "null,5", 100, hs...)
		h.expect(Record{Key: win("hey", 0, 100), Value: Change{Old: int64(5)}, Timestamp: 100, Headers: hs})
	})
	t.Run("suppressShouldNotDropTombstonesForSessionWindows", func(t *testing.T) {
		h := newSuppressHarness(t, timeLimit(0, MaxRecords(0)), "session", nil)
		h.mustProcess("hey@0/0", "null,5", 100)
		h.expect(Record{Key: win("hey", 0, 0), Value: Change{Old: int64(5)}, Timestamp: 100})
	})
	t.Run("suppressShouldNotDropTombstonesForKTable", func(t *testing.T) {
		h := newSuppressHarness(t, timeLimit(0, MaxRecords(0)), "", nil)
		h.mustProcess("hey", "null,5", 100)
		h.expect(Record{Key: "hey", Value: Change{Old: int64(5)}, Timestamp: 100})
	})
	for name, b := range map[string]Buffer{"Record": MaxRecords(1), "Byte": MaxBytes(60)} {
		t.Run("suppressShouldEmitWhenOver"+name+"Capacity", func(t *testing.T) {
			h := newSuppressHarness(t, timeLimit(100*24*time.Hour, b), "", nil)
			h.mustProcess("hey", "null,5", 100)
			h.mustProcess("dummyKey", "null,5", 101)
			h.expect(Record{Key: "hey", Value: Change{Old: int64(5)}, Timestamp: 100})
		})
	}
	for name, b := range map[string]Buffer{"Record": MaxRecords(1).ShutDownWhenFull(), "Byte": MaxBytes(60).ShutDownWhenFull()} {
		t.Run("suppressShouldShutDownWhenOver"+name+"Capacity", func(t *testing.T) {
			h := newSuppressHarness(t, timeLimit(100*24*time.Hour, b), "", nil)
			h.mustProcess("hey", "null,5", 100)
			err := h.process("dummyKey", "null,5", 100)
			if err == nil || !strings.Contains(err.Error(), "testNode buffer exceeded its max capacity") {
				t.Fatalf("error %v", err)
			}
		})
	}
}

// TestSuppressBufferRewindsToCommittedState: an aborted epoch's buffer
// changes are dropped with the store's overlay; the task rebuilt over the
// store (as the runtime rebuilds it after an abort) holds exactly the
// committed buffer, and emits nothing of the aborted epoch.
func TestSuppressBufferRewindsToCommittedState(t *testing.T) {
	store := state.NewInMemoryKeyValue(state.KeyValueOptions{Name: "test-store"})
	spec := timeLimit(10*time.Millisecond, Unbounded())
	h := newSuppressHarness(t, spec, "", store)
	h.mustProcess("a", "1,null", 1)
	h.mustProcess("b", "2,null", 2)
	if err := h.task.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := store.Commit(map[state.TopicPartition]*int64{}); err != nil {
		t.Fatal(err)
	}
	// The next epoch: a is updated, c buffered, and stream time 11 pushes
	// a out; then the epoch aborts.
	h.mustProcess("a", "3,1", 5)
	h.mustProcess("c", "4,null", 11)
	if err := h.task.Flush(); err != nil {
		t.Fatal(err)
	}
	h.expect(Record{Key: "a", Value: Change{New: int64(3), Old: int64(1)}, Timestamp: 5})
	store.Rollback()

	h2 := newSuppressHarness(t, timeLimit(10*time.Millisecond, Unbounded()), "", store)
	if n := h2.task.stores["test-store"].(*suppressBuffer).numRecords(); n != 2 {
		t.Fatalf("rebuilt buffer holds %d keys, want the 2 committed", n)
	}
	h2.mustProcess("tick", "0,null", 100)
	h2.expect(Record{Key: "a", Value: Change{New: int64(1)}, Timestamp: 1}, Record{Key: "b", Value: Change{New: int64(2)}, Timestamp: 2})
}

// TestSuppressBufferRestoresFromChangelog: a store restored from the
// buffer's changelog (an in-memory buffer after a restart) gives the
// rebuilt task the buffer the first one had: same keys, same order, same
// record contexts.
func TestSuppressBufferRestoresFromChangelog(t *testing.T) {
	h := newSuppressHarness(t, timeLimit(10*time.Millisecond, MaxRecords(3)), "", nil)
	for i, k := range []string{"a", "b", "a", "c", "d", "b"} {
		h.mustProcess(k, strconv.Itoa(i)+",null", int64(i), Header{Key: "h", Value: []byte(k)})
		if i%2 == 1 {
			if err := h.task.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	var recs []state.ChangelogRecord
	for _, r := range h.out.records {
		if r.Topic != "app-test-store-changelog" {
			t.Fatalf("record to %s", r.Topic)
		}
		if r.Value != nil && (len(r.Headers) != 1 || r.Headers[0].Key != "v" || string(r.Headers[0].Value) != "\x03") {
			t.Fatalf("value record without v=3: %+v", r)
		}
		recs = append(recs, state.ChangelogRecord{Key: r.Key, Value: r.Value, Timestamp: r.Timestamp})
	}
	restored := state.NewInMemoryKeyValue(state.KeyValueOptions{Name: "test-store"})
	tp := state.TopicPartition{Topic: "app-test-store-changelog", Partition: 0}
	if err := restored.ApplyChangelog(recs, tp, int64(len(recs)-1)); err != nil {
		t.Fatal(err)
	}
	emitted := len(h.got)
	h.mustProcess("tick", "9,null", 1000)
	want := h.got[emitted:]
	h2 := newSuppressHarness(t, timeLimit(10*time.Millisecond, MaxRecords(3)), "", restored)
	h2.mustProcess("tick", "9,null", 1000)
	if !reflect.DeepEqual(h2.got, want) || len(want) != 3 {
		t.Errorf("restored buffer emitted %+v, the original %+v", h2.got, want)
	}
}

// TestJavaHashSetOrder pins the iteration order of java.util.HashSet<Bytes>
// for single-byte keys (Arrays.hashCode([b]) = 31 + b): bucket order, then
// insertion order, and the table doubling past 12 keys.
func TestSuppressDirtyKeysIterateAsJavaHashSet(t *testing.T) {
	s := newJavaHashSet()
	for _, b := range []byte{'a', 'q', 'A'} { // 128, 144, 96: buckets 0, 0, 0 of 16
		s.add([]byte{b})
	}
	s.add([]byte{'b'}) // 129: bucket 1
	got := ""
	for _, k := range s.drain() {
		got += string(k)
	}
	if got != "aqAb" {
		t.Errorf("order %q, want aqAb", got)
	}
	for b := byte(0); b < 13; b++ { // the 13th key doubles the table to 32
		s.add([]byte{b})
	}
	if s.buckets != 32 {
		t.Errorf("%d buckets, want 32", s.buckets)
	}
	s.drain()
	if s.buckets != 32 {
		t.Errorf("drain shrank the table to %d buckets", s.buckets)
	}
}

// TestSuppressBufferPriorValue: the view a suppressed table gives a join
// (Kafka's priorValueForBuffered): a buffered key reads as the value it had
// before it was buffered, null included; other keys are not buffered.
func TestSuppressBufferPriorValue(t *testing.T) {
	h := newSuppressHarness(t, timeLimit(10*time.Millisecond, Unbounded()), "", nil)
	h.mustProcess("a", "1,null", 1)
	h.mustProcess("b", "2,7", 2)
	h.mustProcess("b", "3,2", 3)
	buf := h.task.stores["test-store"].(*suppressBuffer)
	for _, c := range []struct {
		key      string
		value    any
		buffered bool
	}{{"a", nil, true}, {"b", int64(7), true}, {"c", nil, false}} {
		v, ok, err := buf.priorValue(c.key)
		if err != nil || ok != c.buffered || v != c.value {
			t.Errorf("%s: %v %v %v, want %v %v", c.key, v, ok, err, c.value, c.buffered)
		}
	}
}
