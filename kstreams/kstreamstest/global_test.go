package kstreamstest_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
)

// globalJoinHarness is the set-up of Kafka's KStreamGlobalKTableJoinTest and
// KStreamGlobalKTableLeftJoinTest: a stream of Integer keys and String
// values "X<n>,FKey<n>" joined with a global table keyed by "FKey<n>"; the
// key selector takes the value's second token, or null when there is none.
// Stream timestamps start at 0 and advance by 1 per record, as the test's
// input topic auto-advances them.
type globalJoinHarness struct {
	t      *testing.T
	d      *kstreamstest.Driver
	nextTs int64
}

var expectedKeys = []int32{0, 1, 2, 3}

func newGlobalJoinHarness(t *testing.T, left bool) *globalJoinHarness {
	b := kstreams.NewStreamsBuilder()
	stream := kstreams.Stream(b, []string{"streamTopic"}, kstreams.ConsumedWith[int32, string](serde.Integer{}, serde.String{}))
	table := kstreams.GlobalTable(b, "globalTableTopic", kstreams.ConsumedWith[*string, string](serde.Nullable[string](serde.String{}), serde.String{}))
	keyMapper := func(_ int32, v string) *string {
		tokens := strings.Split(v, ",")
		if len(tokens) > 1 {
			return &tokens[1]
		}
		return nil
	}
	var joined *kstreams.KStream[int32, string]
	if left {
		joined = kstreams.LeftJoinGlobal(stream, table, keyMapper, func(v string, g *string) string {
			if g == nil {
				return v + "+null"
			}
			return v + "+" + *g
		})
	} else {
		joined = kstreams.JoinGlobal(stream, table, keyMapper, func(v, g string) string { return v + "+" + g })
	}
	joined.To("out", kstreams.ProducedWith[int32, string](serde.Integer{}, serde.String{}))
	return &globalJoinHarness{t: t, d: build(t, b, kstreamstest.Config{})}
}

func (h *globalJoinHarness) pushToStream(n int, prefix string, foreignKey, nullKey bool) {
	h.t.Helper()
	for i := 0; i < n; i++ {
		v := fmt.Sprintf("%s%d", prefix, expectedKeys[i])
		if foreignKey {
			v += fmt.Sprintf(",FKey%d", expectedKeys[i])
		}
		key, _ := serde.Integer{}.Serialize("streamTopic", expectedKeys[i])
		if nullKey && i == 0 {
			key = nil
		}
		if err := h.d.Pipe("streamTopic", key, []byte(v), h.nextTs); err != nil {
			h.t.Fatal(err)
		}
		h.nextTs++
	}
}

func (h *globalJoinHarness) pushToGlobalTable(n int, prefix string) {
	h.t.Helper()
	for i := 0; i < n; i++ {
		if err := h.d.Pipe("globalTableTopic", []byte(fmt.Sprintf("FKey%d", expectedKeys[i])), []byte(fmt.Sprintf("%s%d", prefix, expectedKeys[i])), 0); err != nil {
			h.t.Fatal(err)
		}
	}
}

func (h *globalJoinHarness) pushNullValueToGlobalTable(n int) {
	h.t.Helper()
	for i := 0; i < n; i++ {
		if err := h.d.Pipe("globalTableTopic", []byte(fmt.Sprintf("FKey%d", expectedKeys[i])), nil, 0); err != nil {
			h.t.Fatal(err)
		}
	}
}

// gkvt is one expected result; a nil key is null.
type gkvt struct {
	key   *int32
	value string
	ts    int64
}

func k(n int32) *int32 { return &n }

func (h *globalJoinHarness) checkAndClear(want ...gkvt) {
	h.t.Helper()
	got, err := kstreamstest.ReadOutput[int32, string](h.d, "out", serde.Integer{}, serde.String{})
	if err != nil {
		h.t.Fatal(err)
	}
	if len(got) != len(want) {
		h.t.Fatalf("%d results, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		keyOK := (w.key == nil && g.KeyNull) || (w.key != nil && !g.KeyNull && g.Key == *w.key)
		if !keyOK || g.ValueNull || g.Value != w.value || g.Timestamp != w.ts {
			h.t.Errorf("result %d = %+v, want %+v (key %v)", i, g, w, w.key)
		}
	}
}

// KStreamGlobalKTableJoinTest, every case.
func TestStreamGlobalTableJoinKafkaCases(t *testing.T) {
	t.Run("shouldNotJoinWithEmptyGlobalTableOnStreamUpdates", func(t *testing.T) {
		h := newGlobalJoinHarness(t, false)
		h.pushToStream(2, "X", true, false)
		h.checkAndClear()
	})
	t.Run("shouldNotJoinOnGlobalTableUpdates", func(t *testing.T) {
		h := newGlobalJoinHarness(t, false)
		h.pushToStream(2, "X", true, false)
		h.checkAndClear()
		h.pushToGlobalTable(2, "Y")
		h.checkAndClear()
		h.pushToStream(4, "X", true, false)
		h.checkAndClear(gkvt{k(0), "X0,FKey0+Y0", 2}, gkvt{k(1), "X1,FKey1+Y1", 3})
		h.pushToGlobalTable(4, "YY")
		h.checkAndClear()
		h.pushToStream(4, "X", true, false)
		h.checkAndClear(gkvt{k(0), "X0,FKey0+YY0", 6}, gkvt{k(1), "X1,FKey1+YY1", 7}, gkvt{k(2), "X2,FKey2+YY2", 8}, gkvt{k(3), "X3,FKey3+YY3", 9})
		h.pushToGlobalTable(4, "YYY")
		h.checkAndClear()
	})
	t.Run("shouldJoinOnlyIfMatchFoundOnStreamUpdates", func(t *testing.T) {
		h := newGlobalJoinHarness(t, false)
		h.pushToGlobalTable(2, "Y")
		h.checkAndClear()
		h.pushToStream(4, "X", true, false)
		h.checkAndClear(gkvt{k(0), "X0,FKey0+Y0", 0}, gkvt{k(1), "X1,FKey1+Y1", 1})
	})
	t.Run("shouldClearGlobalTableEntryOnNullValueUpdates", func(t *testing.T) {
		h := newGlobalJoinHarness(t, false)
		h.pushToGlobalTable(4, "Y")
		h.checkAndClear()
		h.pushToStream(4, "X", true, false)
		h.checkAndClear(gkvt{k(0), "X0,FKey0+Y0", 0}, gkvt{k(1), "X1,FKey1+Y1", 1}, gkvt{k(2), "X2,FKey2+Y2", 2}, gkvt{k(3), "X3,FKey3+Y3", 3})
		h.pushNullValueToGlobalTable(2)
		h.checkAndClear()
		h.pushToStream(4, "XX", true, false)
		h.checkAndClear(gkvt{k(2), "XX2,FKey2+Y2", 6}, gkvt{k(3), "XX3,FKey3+Y3", 7})
	})
	t.Run("shouldNotJoinOnNullKeyMapperValues", func(t *testing.T) {
		h := newGlobalJoinHarness(t, false)
		h.pushToGlobalTable(4, "Y")
		h.checkAndClear()
		h.pushToStream(4, "XXX", false, false)
		h.checkAndClear()
		if n := len(h.d.Dropped()); n != 4 {
			t.Errorf("%d records dropped, want the 4 with a null selected key: %+v", n, h.d.Dropped())
		}
	})
	t.Run("shouldJoinOnNullKeyWithNonNullKeyMapperValues", func(t *testing.T) {
		h := newGlobalJoinHarness(t, false)
		h.pushToGlobalTable(2, "Y")
		h.checkAndClear()
		h.pushToStream(4, "X", true, true)
		h.checkAndClear(gkvt{nil, "X0,FKey0+Y0", 0}, gkvt{k(1), "X1,FKey1+Y1", 1})
	})
}

// KStreamGlobalKTableLeftJoinTest, every case.
func TestStreamGlobalTableLeftJoinKafkaCases(t *testing.T) {
	t.Run("shouldJoinWithEmptyGlobalTableOnStreamUpdates", func(t *testing.T) {
		h := newGlobalJoinHarness(t, true)
		h.pushToStream(2, "X", true, false)
		h.checkAndClear(gkvt{k(0), "X0,FKey0+null", 0}, gkvt{k(1), "X1,FKey1+null", 1})
	})
	t.Run("shouldNotJoinOnGlobalTableUpdates", func(t *testing.T) {
		h := newGlobalJoinHarness(t, true)
		h.pushToStream(2, "X", true, false)
		h.checkAndClear(gkvt{k(0), "X0,FKey0+null", 0}, gkvt{k(1), "X1,FKey1+null", 1})
		h.pushToGlobalTable(2, "Y")
		h.checkAndClear()
		h.pushToStream(4, "X", true, false)
		h.checkAndClear(gkvt{k(0), "X0,FKey0+Y0", 2}, gkvt{k(1), "X1,FKey1+Y1", 3}, gkvt{k(2), "X2,FKey2+null", 4}, gkvt{k(3), "X3,FKey3+null", 5})
		h.pushToGlobalTable(4, "YY")
		h.checkAndClear()
		h.pushToStream(4, "X", true, false)
		h.checkAndClear(gkvt{k(0), "X0,FKey0+YY0", 6}, gkvt{k(1), "X1,FKey1+YY1", 7}, gkvt{k(2), "X2,FKey2+YY2", 8}, gkvt{k(3), "X3,FKey3+YY3", 9})
		h.pushToGlobalTable(4, "YYY")
		h.checkAndClear()
	})
	t.Run("shouldJoinRegardlessIfMatchFoundOnStreamUpdates", func(t *testing.T) {
		h := newGlobalJoinHarness(t, true)
		h.pushToGlobalTable(2, "Y")
		h.checkAndClear()
		h.pushToStream(4, "X", true, false)
		h.checkAndClear(gkvt{k(0), "X0,FKey0+Y0", 0}, gkvt{k(1), "X1,FKey1+Y1", 1}, gkvt{k(2), "X2,FKey2+null", 2}, gkvt{k(3), "X3,FKey3+null", 3})
	})
	t.Run("shouldClearGlobalTableEntryOnNullValueUpdates", func(t *testing.T) {
		h := newGlobalJoinHarness(t, true)
		h.pushToGlobalTable(4, "Y")
		h.checkAndClear()
		h.pushToStream(4, "X", true, false)
		h.checkAndClear(gkvt{k(0), "X0,FKey0+Y0", 0}, gkvt{k(1), "X1,FKey1+Y1", 1}, gkvt{k(2), "X2,FKey2+Y2", 2}, gkvt{k(3), "X3,FKey3+Y3", 3})
		h.pushNullValueToGlobalTable(2)
		h.checkAndClear()
		h.pushToStream(4, "XX", true, false)
		h.checkAndClear(gkvt{k(0), "XX0,FKey0+null", 4}, gkvt{k(1), "XX1,FKey1+null", 5}, gkvt{k(2), "XX2,FKey2+Y2", 6}, gkvt{k(3), "XX3,FKey3+Y3", 7})
	})
	t.Run("nullKeyMapperValuesJoinWithNull", func(t *testing.T) {
		// Kafka Streams 4.4 keeps a left-join record that has a value but
		// whose selected key is null: it joins with null
		// (KStreamKTableJoinProcessor.maybeDropRecord tests the selected
		// key, where older versions tested the record key and dropped it).
		// The differential test's left join pins this against Kafka Streams.
		h := newGlobalJoinHarness(t, true)
		h.pushToGlobalTable(4, "Y")
		h.checkAndClear()
		h.pushToStream(4, "XXX", false, false)
		h.checkAndClear(gkvt{k(0), "XXX0+null", 0}, gkvt{k(1), "XXX1+null", 1}, gkvt{k(2), "XXX2+null", 2}, gkvt{k(3), "XXX3+null", 3})
	})
	t.Run("shouldJoinOnNullKeyWithNonNullKeyMapperValues", func(t *testing.T) {
		h := newGlobalJoinHarness(t, true)
		h.pushToGlobalTable(4, "Y")
		h.checkAndClear()
		h.pushToStream(4, "X", true, true)
		h.checkAndClear(gkvt{nil, "X0,FKey0+Y0", 0}, gkvt{k(1), "X1,FKey1+Y1", 1}, gkvt{k(2), "X2,FKey2+Y2", 2}, gkvt{k(3), "X3,FKey3+Y3", 3})
	})
}

// GlobalKTableJoinsTest: the last value per key of a left and an inner join
// of a stream with a global table written first.
func TestGlobalTableJoinsLastValuePerKey(t *testing.T) {
	for _, left := range []bool{true, false} {
		b := kstreams.NewStreamsBuilder()
		str := kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})
		global := kstreams.GlobalTable(b, "global", str)
		stream := kstreams.Stream(b, []string{"stream"}, str)
		sel := func(_, v string) string { return v }
		var out *kstreams.KStream[string, string]
		if left {
			out = kstreams.LeftJoinGlobal(stream, global, sel, func(v string, g *string) string {
				if g == nil {
					return v + "+null"
				}
				return v + "+" + *g
			})
		} else {
			out = kstreams.JoinGlobal(stream, global, sel, func(v, g string) string { return v + "+" + g })
		}
		out.To("out", kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
		d := build(t, b, kstreamstest.Config{})
		for _, r := range []struct {
			topic, k, v string
			ts          int64
		}{{"global", "a", "A", 1}, {"global", "b", "B", 5}, {"stream", "1", "a", 2}, {"stream", "2", "b", 10}, {"stream", "3", "c", 3}} {
			if err := d.Pipe(r.topic, []byte(r.k), []byte(r.v), r.ts); err != nil {
				t.Fatal(err)
			}
		}
		want := []kv{{"1", []byte("a+A"), 2}, {"2", []byte("b+B"), 10}}
		if left {
			want = append(want, kv{"3", []byte("c+null"), 3})
		}
		check(t, fmt.Sprintf("left=%v", left), d.Records("out"), want)
	}
}

// A global table has no changelog, its store holds every row in Kafka's
// timestamped layout, and a stream task cannot write it.
func TestGlobalTableStoreAndNoChangelog(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	str := kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})
	g := kstreams.GlobalTable(b, "g", str, kstreams.MaterializedAs[string, string]("g-store"))
	s := kstreams.Stream(b, []string{"s"}, str)
	var writeErr error
	kstreams.Process[string, string](s, func() kstreams.Processor {
		return &writeGlobal{store: g.QueryableStoreName(), err: &writeErr}
	}, "writer")
	d := build(t, b, kstreamstest.Config{})
	if err := d.Pipe("g", []byte("a"), []byte("A"), 7); err != nil {
		t.Fatal(err)
	}
	if err := d.Pipe("s", []byte("x"), []byte("y"), 8); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(writeErr, kstreams.ErrGlobalStoreReadOnly) {
		t.Errorf("a stream task's write to a global store: %v, want ErrGlobalStoreReadOnly", writeErr)
	}
	if topics := d.Topics(); len(topics) != 0 {
		t.Errorf("topics written: %v, want none (a global table has no changelog)", topics)
	}
	kvs, _ := d.GlobalStore("g-store")
	v, err := kvs.ReadOnly(state.ReadCommitted).Get([]byte("a"))
	if err != nil || string(v) != "\x00\x00\x00\x00\x00\x00\x00\x07A" {
		t.Errorf("global store a = %q, %v; want timestamp 7 then A", v, err)
	}
}

type writeGlobal struct {
	ctx   kstreams.ProcessorContext
	store string
	err   *error
}

func (p *writeGlobal) Init(ctx kstreams.ProcessorContext) error { p.ctx = ctx; return nil }
func (p *writeGlobal) Close() error                             { return nil }
func (p *writeGlobal) Process(r kstreams.Record) error {
	st, err := p.ctx.StateStore(p.store)
	if err != nil {
		return err
	}
	v, _, ok, err := st.(*kstreams.TimestampedKeyValueStore).Get("a")
	if err != nil || !ok || v != "A" {
		return fmt.Errorf("reading the global store: %v %v %v", v, ok, err)
	}
	*p.err = st.(*kstreams.TimestampedKeyValueStore).Put("b", "B", r.Timestamp)
	return nil
}
