package kstreamstest_test

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// ssJoinInput is one input step of Kafka's AbstractJoinIntegrationTest: a
// record of the left or right topic with key 0 (or a null key) and a value
// (or null) at a timestamp relative to the test's base time.
type ssJoinInput struct {
	right   bool
	nullKey bool
	value   string // "" is null
	ts      int64
}

// joinOutput is one expected output record: key 0 unless nullKey.
type joinOutput struct {
	nullKey bool
	value   string
	ts      int64
}

// joinBase is the base timestamp the steps are relative to, far from zero
// as the MockTime of Kafka's test is.
const joinBase = 1_700_000_000_000

// ssInputWithoutOutOfOrderData is AbstractJoinIntegrationTest's input of the
// same name.
var ssInputWithoutOutOfOrderData = []ssJoinInput{
	{false, false, "", 1}, {true, false, "", 2}, {false, false, "A", 3}, {true, false, "a", 4},
	{false, false, "B", 5}, {true, false, "b", 6}, {false, false, "", 7}, {true, false, "", 8},
	{false, false, "C", 9}, {true, false, "c", 10}, {true, false, "", 11}, {false, false, "", 12},
	{true, false, "", 13}, {true, false, "d", 14}, {false, false, "D", 15}, {false, true, "E", 16},
	{true, true, "e", 17},
}

// joinMatrixInner is StreamStreamJoinIntegrationTest.testInner's expected
// output per step (testLeft and testOuter add to its last two steps).
func joinMatrixInner() [][]joinOutput {
	k := func(v string, ts int64) joinOutput { return joinOutput{value: v, ts: ts} }
	return [][]joinOutput{nil, nil, nil,
		{k("A-a", 4)}, {k("B-a", 5)}, {k("A-b", 6), k("B-b", 6)}, nil, nil,
		{k("C-a", 9), k("C-b", 9)}, {k("A-c", 10), k("B-c", 10), k("C-c", 10)}, nil, nil, nil,
		{k("A-d", 14), k("B-d", 14), k("C-d", 14)}, {k("D-a", 15), k("D-b", 15), k("D-c", 15), k("D-d", 15)},
		nil, nil}
}

func longKey(nullKey bool) []byte {
	if nullKey {
		return nil
	}
	return binary.BigEndian.AppendUint64(nil, 0)
}

func strValue(v string) []byte {
	if v == "" {
		return nil
	}
	return []byte(v)
}

var longStringDefaults = kstreamstest.Config{ApplicationID: "app",
	DefaultKeySerde: serde.Erase[int64](serde.Long{}), DefaultValueSerde: serde.Erase[string](serde.String{})}

// nullableLongDefaults reads the same Long keys as *int64, nil for null: the
// key type of a Go port of Java's map((k, v) -> KeyValue.pair(k, v)) that
// keeps a null key null (over int64 keys the function would see 0 and
// give back the key 0).
var nullableLongDefaults = kstreamstest.Config{ApplicationID: "app",
	DefaultKeySerde: serde.Erase[*int64](serde.Nullable[int64](serde.Long{})), DefaultValueSerde: serde.Erase[string](serde.String{})}

// rekeyedJoinStreams are joinStreams behind Java's identity map on the left
// and selectKey on the right, which repartition both sides, over nullable
// keys: a null key stays null through them.
func rekeyedJoinStreams(b *kstreams.StreamsBuilder) (*kstreams.KStream[*int64, string], *kstreams.KStream[*int64, string]) {
	l := kstreams.Stream[*int64, string](b, []string{"left"})
	r := kstreams.Stream[*int64, string](b, []string{"right"})
	return kstreams.Map(l, func(k *int64, v string) (*int64, string) { return k, v }),
		kstreams.SelectKey(r, func(k *int64, _ string) *int64 { return k })
}

// runSsJoinSteps pipes the steps into "left" and "right" and checks the
// output after each, as AbstractJoinIntegrationTest.runTestWithDriver does.
func runSsJoinSteps(t *testing.T, b *kstreams.StreamsBuilder, cfg kstreamstest.Config, steps []ssJoinInput, want [][]joinOutput) *kstreamstest.Driver {
	t.Helper()
	d := build(t, b, cfg)
	for i, s := range steps {
		topic := "left"
		if s.right {
			topic = "right"
		}
		if err := d.Pipe(topic, longKey(s.nullKey), strValue(s.value), joinBase+s.ts); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		got, err := kstreamstest.ReadOutput[int64, string](d, "out", serde.Long{}, serde.String{})
		if err != nil {
			t.Fatal(err)
		}
		var exp []joinOutput
		if i < len(want) {
			exp = want[i]
		}
		if len(got) != len(exp) {
			t.Fatalf("step %d (%s %q @%d): got %s, want %v", i, topic, s.value, s.ts, show(got), exp)
		}
		for j, e := range exp {
			g := got[j]
			if g.KeyNull != e.nullKey || (!g.KeyNull && g.Key != 0) || g.ValueNull || g.Value != e.value || g.Timestamp != joinBase+e.ts {
				t.Fatalf("step %d: output %d = %s, want %+v", i, j, show(got[j:j+1]), e)
			}
		}
	}
	return d
}

func show(rs []kstreamstest.TestRecord[int64, string]) string {
	var parts []string
	for _, r := range rs {
		k := fmt.Sprint(r.Key)
		if r.KeyNull {
			k = "null"
		}
		v := r.Value
		if r.ValueNull {
			v = "<null>"
		}
		parts = append(parts, fmt.Sprintf("%s:%s@%d", k, v, r.Timestamp-joinBase))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func joinStreams(b *kstreams.StreamsBuilder) (*kstreams.KStream[int64, string], *kstreams.KStream[int64, string]) {
	l := kstreams.Stream[int64, string](b, []string{"left"})
	r := kstreams.Stream[int64, string](b, []string{"right"})
	return l, r
}

func dash(a, b string) string { return a + "-" + b }

func orNull(p *string) string {
	if p == nil {
		return "null"
	}
	return *p
}

var tenSecondsDayGrace = kstreams.JoinWindowsOfTimeDifferenceAndGrace(10*time.Second, 24*time.Hour)

// StreamStreamJoinIntegrationTest.testInner.
func TestStreamStreamInnerJoinMatrix(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	l, r := joinStreams(b)
	kstreams.Join(l, r, dash, tenSecondsDayGrace).To("out")
	d := runSsJoinSteps(t, b, longStringDefaults, ssInputWithoutOutOfOrderData, joinMatrixInner())
	// The null-key records and the null values were dropped and counted.
	if n := len(d.Dropped()); n != 9 {
		t.Errorf("%d dropped records, want 9 (7 null values, 2 null keys): %v", n, d.Dropped())
	}
}

// StreamStreamJoinIntegrationTest.testInnerRepartitioned: a map on the left
// and a flatMap + selectKey on the right repartition both sides first.
func TestStreamStreamInnerJoinRepartitionedMatrix(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	l := kstreams.Stream[*int64, string](b, []string{"left"})
	r := kstreams.Stream[*int64, string](b, []string{"right"})
	lm := kstreams.Map(l, func(k *int64, v string) (*int64, string) { return k, v })
	rm := kstreams.SelectKey(kstreams.FlatMap(r, func(k *int64, v string) []kstreams.KeyValue[*int64, string] {
		return []kstreams.KeyValue[*int64, string]{{Key: k, Value: v}}
	}), func(k *int64, _ string) *int64 { return k })
	kstreams.Join(lm, rm, dash, tenSecondsDayGrace).To("out")
	runSsJoinSteps(t, b, nullableLongDefaults, ssInputWithoutOutOfOrderData, joinMatrixInner())
}

// StreamStreamJoinIntegrationTest.testLeft: the null-key left record E is
// emitted at once; the null-key right record e is dropped.
func TestStreamStreamLeftJoinMatrix(t *testing.T) {
	for _, repartition := range []bool{false, true} {
		t.Run(fmt.Sprint("repartitioned=", repartition), func(t *testing.T) {
			b := kstreams.NewStreamsBuilder()
			cfg := longStringDefaults
			if repartition {
				l, r := rekeyedJoinStreams(b)
				kstreams.LeftJoin(l, r, func(v string, o *string) string { return v + "-" + orNull(o) }, tenSecondsDayGrace).To("out")
				cfg = nullableLongDefaults
			} else {
				l, r := joinStreams(b)
				kstreams.LeftJoin(l, r, func(v string, o *string) string { return v + "-" + orNull(o) }, tenSecondsDayGrace).To("out")
			}
			want := joinMatrixInner()
			want[15] = []joinOutput{{nullKey: true, value: "E-null", ts: 16}}
			runSsJoinSteps(t, b, cfg, ssInputWithoutOutOfOrderData, want)
		})
	}
}

// StreamStreamJoinIntegrationTest.testOuter.
func TestStreamStreamOuterJoinMatrix(t *testing.T) {
	for _, repartition := range []bool{false, true} {
		t.Run(fmt.Sprint("repartitioned=", repartition), func(t *testing.T) {
			b := kstreams.NewStreamsBuilder()
			cfg := longStringDefaults
			if repartition {
				l, r := rekeyedJoinStreams(b)
				kstreams.OuterJoin(l, r, func(v, o *string) string { return orNull(v) + "-" + orNull(o) }, tenSecondsDayGrace).To("out")
				cfg = nullableLongDefaults
			} else {
				l, r := joinStreams(b)
				kstreams.OuterJoin(l, r, func(v, o *string) string { return orNull(v) + "-" + orNull(o) }, tenSecondsDayGrace).To("out")
			}
			want := joinMatrixInner()
			want[15] = []joinOutput{{nullKey: true, value: "E-null", ts: 16}}
			want[16] = []joinOutput{{nullKey: true, value: "null-e", ts: 17}}
			runSsJoinSteps(t, b, cfg, ssInputWithoutOutOfOrderData, want)
		})
	}
}

// outerJoinFixture is the topology of KStreamKStreamOuterJoinTest and
// KStreamKStreamLeftJoinTest: Integer keys, String left values, Long right
// values, MockValueJoiner.TOSTRING_JOINER (v1 + "+" + v2, null as "null").
type outerJoinFixture struct {
	d         *kstreamstest.Driver
	left      *kstreamstest.InputTopic[int32, string]
	rightLong *kstreamstest.InputTopic[int32, int64]
}

func ptrString[T any](p *T) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

func newJoinFixture(t *testing.T, outer bool, w kstreams.JoinWindows) *outerJoinFixture {
	t.Helper()
	b := kstreams.NewStreamsBuilder()
	l := kstreams.Stream(b, []string{"topic1"}, kstreams.ConsumedWith[int32, string](serde.Integer{}, serde.String{}))
	r := kstreams.Stream(b, []string{"topic2"}, kstreams.ConsumedWith[int32, int64](serde.Integer{}, serde.Long{}))
	sj := kstreams.StreamJoined[int32, string, int64]{KeySerde: serde.Integer{}, ValueSerde: serde.String{}, OtherValueSerde: serde.Long{}}
	var out *kstreams.KStream[int32, string]
	if outer {
		out = kstreams.OuterJoin(l, r, func(a *string, b *int64) string { return ptrString(a) + "+" + ptrString(b) }, w, sj)
	} else {
		out = kstreams.LeftJoin(l, r, func(a string, b *int64) string { return a + "+" + ptrString(b) }, w, sj)
	}
	out.To("out", kstreams.ProducedWith[int32, string](serde.Integer{}, serde.String{}))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if g := topo.CopartitionGroups(); len(g) != 1 || strings.Join(g[0], ",") != "topic1,topic2" {
		t.Fatalf("co-partition groups %v, want [[topic1 topic2]]", g)
	}
	d, err := kstreamstest.New(topo, kstreamstest.Config{ApplicationID: "app"})
	if err != nil {
		t.Fatal(err)
	}
	return &outerJoinFixture{d: d,
		left:      kstreamstest.NewInputTopic[int32, string](d, "topic1", serde.Integer{}, serde.String{}),
		rightLong: kstreamstest.NewInputTopic[int32, int64](d, "topic2", serde.Integer{}, serde.Long{})}
}

func (f *outerJoinFixture) l(t *testing.T, k int32, v string, ts int64) {
	t.Helper()
	if err := f.left.Pipe(k, v, ts); err != nil {
		t.Fatal(err)
	}
}

func (f *outerJoinFixture) r(t *testing.T, k int32, v int64, ts int64) {
	t.Helper()
	if err := f.rightLong.Pipe(k, v, ts); err != nil {
		t.Fatal(err)
	}
}

// expect checks the output since the last call: "key:value@ts" each.
func (f *outerJoinFixture) expect(t *testing.T, want ...string) {
	t.Helper()
	got, err := kstreamstest.ReadOutput[int32, string](f.d, "out", serde.Integer{}, serde.String{})
	if err != nil {
		t.Fatal(err)
	}
	var g []string
	for _, r := range got {
		g = append(g, fmt.Sprintf("%d:%s@%d", r.Key, r.Value, r.Timestamp))
	}
	if strings.Join(g, " ") != strings.Join(want, " ") {
		t.Fatalf("output\n got  %v\n want %v", g, want)
	}
}

// KStreamKStreamOuterJoinTest.testOuterJoinDuplicates.
func TestStreamStreamOuterJoinDuplicates(t *testing.T) {
	f := newJoinFixture(t, true, kstreams.JoinWindowsOfTimeDifferenceAndGrace(100*time.Millisecond, 10*time.Millisecond))
	f.l(t, 0, "A0", 0)
	f.l(t, 0, "A0-0", 0)
	f.r(t, 1, 11, 0)
	f.r(t, 1, 12, 0)
	f.r(t, 1, 10, 111)
	f.r(t, 3, 100, 211)
	f.expect(t, "1:null+11@0", "1:null+12@0", "0:A0+null@0", "0:A0-0+null@0")
	f.l(t, 2, "A2", 200)
	f.l(t, 2, "A2-0", 200)
	f.r(t, 2, 13, 201)
	f.r(t, 2, 14, 201)
	f.expect(t, "2:A2+13@201", "2:A2-0+13@201", "2:A2+14@201", "2:A2-0+14@201")
	f.r(t, 3, 100, 1500)
	f.expect(t, "1:null+10@111", "3:null+100@211")
}

// KStreamKStreamOuterJoinTest.testOrdering: the expired non-joined record
// comes before the join the same record causes.
func TestStreamStreamOuterJoinOrdering(t *testing.T) {
	f := newJoinFixture(t, true, kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(100*time.Millisecond))
	f.l(t, 0, "A0", 0)
	f.l(t, 1, "A1", 100)
	f.expect(t)
	f.r(t, 1, 11, 110)
	f.expect(t, "0:A0+null@0", "1:A1+11@110")
}

// KStreamKStreamOuterJoinTest.testGracePeriod.
func TestStreamStreamOuterJoinGracePeriod(t *testing.T) {
	f := newJoinFixture(t, true, kstreams.JoinWindowsOfTimeDifferenceAndGrace(100*time.Millisecond, 10*time.Millisecond))
	f.l(t, 0, "A0", 0)
	f.r(t, 1, 11, 0)
	f.expect(t)
	f.l(t, 1, "A1", 101)
	f.r(t, 0, 10, 101)
	f.expect(t)
	f.r(t, 0, 100, 112)
	f.expect(t, "1:null+11@0", "0:A0+null@0")
}

// KStreamKStreamOuterJoinTest.testEmitAllNonJoinedResultsForAsymmetricWindow.
func TestStreamStreamOuterJoinAsymmetricWindowEmitsEachSideWhenItCloses(t *testing.T) {
	f := newJoinFixture(t, true, kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(5*time.Millisecond).After(20*time.Millisecond))
	f.l(t, 0, "A0", 29)
	f.l(t, 1, "A1", 30)
	f.r(t, 2, 12, 31)
	f.r(t, 3, 13, 36)
	f.expect(t)
	f.r(t, 4, 14, 37)
	f.expect(t, "2:null+12@31")
	f.r(t, 5, 15, 50)
	f.expect(t, "0:A0+null@29", "3:null+13@36", "4:null+14@37")
}

// leftJoinFixture is KStreamKStreamLeftJoinTest's topology: Integer keys,
// String values on both sides, TOSTRING_JOINER.
type leftJoinFixture struct {
	d           *kstreamstest.Driver
	left, right *kstreamstest.InputTopic[int32, string]
}

func newLeftJoinFixture(t *testing.T, w kstreams.JoinWindows) *leftJoinFixture {
	t.Helper()
	b := kstreams.NewStreamsBuilder()
	c := kstreams.ConsumedWith[int32, string](serde.Integer{}, serde.String{})
	l, r := kstreams.Stream(b, []string{"topic1"}, c), kstreams.Stream(b, []string{"topic2"}, c)
	sj := kstreams.StreamJoined[int32, string, string]{KeySerde: serde.Integer{}, ValueSerde: serde.String{}, OtherValueSerde: serde.String{}}
	kstreams.LeftJoin(l, r, func(a string, b *string) string { return a + "+" + ptrString(b) }, w, sj).
		To("out", kstreams.ProducedWith[int32, string](serde.Integer{}, serde.String{}))
	d := build(t, b, kstreamstest.Config{ApplicationID: "app"})
	return &leftJoinFixture{d: d, left: kstreamstest.NewInputTopic[int32, string](d, "topic1", serde.Integer{}, serde.String{}),
		right: kstreamstest.NewInputTopic[int32, string](d, "topic2", serde.Integer{}, serde.String{})}
}

func (f *leftJoinFixture) pipe(t *testing.T, in *kstreamstest.InputTopic[int32, string], k int32, v string, ts int64) {
	t.Helper()
	if err := in.Pipe(k, v, ts); err != nil {
		t.Fatal(err)
	}
}

func (f *leftJoinFixture) expect(t *testing.T, want ...string) {
	t.Helper()
	(&outerJoinFixture{d: f.d}).expect(t, want...)
}

// KStreamKStreamLeftJoinTest.testLeftJoinDuplicates.
func TestStreamStreamLeftJoinDuplicates(t *testing.T) {
	f := newLeftJoinFixture(t, kstreams.JoinWindowsOfTimeDifferenceAndGrace(100*time.Millisecond, 10*time.Millisecond))
	f.pipe(t, f.left, 0, "A0", 0)
	f.pipe(t, f.left, 0, "A0-0", 0)
	f.pipe(t, f.right, 1, "a0", 111)
	f.pipe(t, f.right, 2, "dummy", 500)
	f.expect(t, "0:A0+null@0", "0:A0-0+null@0")
	f.pipe(t, f.left, 2, "A2", 1000)
	f.pipe(t, f.left, 2, "A2-0", 1000)
	f.pipe(t, f.right, 2, "a2", 1001)
	f.expect(t, "2:A2+a2@1001", "2:A2-0+a2@1001")
	f.pipe(t, f.right, 3, "a3", 315)
	f.expect(t)
}

// KStreamKStreamLeftJoinTest.testLeftExpiredNonJoinedRecordsAreEmittedBy{Left,Right}Processor:
// whichever side moves stream time past the window emits the left records
// that found no partner.
func TestStreamStreamLeftJoinExpiredRecordsAreEmittedByEitherSide(t *testing.T) {
	for _, byRight := range []bool{false, true} {
		t.Run(fmt.Sprint("byRight=", byRight), func(t *testing.T) {
			f := newLeftJoinFixture(t, kstreams.JoinWindowsOfTimeDifferenceAndGrace(100*time.Millisecond, 0))
			f.pipe(t, f.left, 0, "A0", 1)
			f.pipe(t, f.left, 1, "A1", 2)
			f.pipe(t, f.left, 0, "A0-0", 3)
			f.expect(t)
			f.pipe(t, f.right, 1, "a1", 3)
			f.expect(t, "1:A1+a1@3")
			first, second := f.left, f.right
			if byRight {
				first, second = f.right, f.left
			}
			f.pipe(t, first, 2, "dummy", 401)
			f.expect(t, "0:A0+null@1", "0:A0-0+null@3")
			f.pipe(t, second, 2, "dummy", 402)
			f.expect(t, "2:dummy+dummy@402")
		})
	}
}

// KStreamKStreamLeftJoinTest.testRightNonJoinedRecordsAreNeverEmittedBy{Left,Right}Processor.
func TestStreamStreamLeftJoinNeverEmitsUnjoinedRightRecords(t *testing.T) {
	for _, byRight := range []bool{false, true} {
		t.Run(fmt.Sprint("byRight=", byRight), func(t *testing.T) {
			f := newLeftJoinFixture(t, kstreams.JoinWindowsOfTimeDifferenceAndGrace(100*time.Millisecond, 0))
			f.pipe(t, f.right, 0, "A0", 1)
			f.pipe(t, f.right, 1, "A1", 2)
			f.pipe(t, f.right, 0, "A0-0", 3)
			f.expect(t)
			f.pipe(t, f.left, 1, "a1", 3)
			f.expect(t, "1:a1+A1@3")
			first, second := f.left, f.right
			if byRight {
				first, second = f.right, f.left
			}
			f.pipe(t, first, 2, "dummy", 401)
			f.expect(t)
			f.pipe(t, second, 2, "dummy", 402)
			f.expect(t, "2:dummy+dummy@402")
		})
	}
}

// KStreamKStreamJoinTest.testWindowing (its first steps): the upper and
// lower bounds of a 100 ms window, and the result's timestamp, the larger
// of the two.
func TestStreamStreamInnerJoinWindowBounds(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	c := kstreams.ConsumedWith[int32, string](serde.Integer{}, serde.String{})
	l, r := kstreams.Stream(b, []string{"topic1"}, c), kstreams.Stream(b, []string{"topic2"}, c)
	sj := kstreams.StreamJoined[int32, string, string]{KeySerde: serde.Integer{}, ValueSerde: serde.String{}, OtherValueSerde: serde.String{}}
	kstreams.JoinWithKey(l, r, func(_ int32, a, b string) string { return a + "+" + b }, kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(100*time.Millisecond), sj).
		To("out", kstreams.ProducedWith[int32, string](serde.Integer{}, serde.String{}))
	d := build(t, b, kstreamstest.Config{ApplicationID: "app"})
	f := &leftJoinFixture{d: d, left: kstreamstest.NewInputTopic[int32, string](d, "topic1", serde.Integer{}, serde.String{}),
		right: kstreamstest.NewInputTopic[int32, string](d, "topic2", serde.Integer{}, serde.String{})}
	keys := []int32{0, 1, 2, 3}
	all := func(in *kstreamstest.InputTopic[int32, string], n int, prefix string, ts func(i int) int64) {
		for i, k := range keys[:n] {
			f.pipe(t, in, k, fmt.Sprintf("%s%d", prefix, k), ts(i))
		}
	}
	at := func(ts int64) func(int) int64 { return func(int) int64 { return ts } }
	all(f.left, 2, "A", at(0))
	f.expect(t)
	all(f.right, 2, "a", at(0))
	f.expect(t, "0:A0+a0@0", "1:A1+a1@0")
	all(f.left, 4, "B", func(i int) int64 { return 1000 + int64(i) })
	f.expect(t)
	all(f.right, 4, "b", at(1100))
	f.expect(t, "0:B0+b0@1100", "1:B1+b1@1100", "2:B2+b2@1100", "3:B3+b3@1100")
	all(f.right, 4, "c", at(1101))
	f.expect(t, "1:B1+c1@1101", "2:B2+c2@1101", "3:B3+c3@1101")
	all(f.right, 4, "d", at(1102))
	f.expect(t, "2:B2+d2@1102", "3:B3+d3@1102")
	all(f.right, 4, "e", at(1103))
	f.expect(t, "3:B3+e3@1103")
	all(f.right, 4, "f", at(1104))
	f.expect(t)
	all(f.right, 4, "g", at(899))
	f.expect(t)
	all(f.right, 4, "h", at(900))
	f.expect(t, "0:B0+h0@1000")
	all(f.right, 4, "i", at(901))
	f.expect(t, "0:B0+i0@1000", "1:B1+i1@1001")
	all(f.right, 4, "j", at(902))
	f.expect(t, "0:B0+j0@1000", "1:B1+j1@1001", "2:B2+j2@1002")
}

// Null contracts of the typed joins: a joiner over pointer values, a nil
// result forwarded as a null value, a null-key left record with a pointer
// key type, and a Nullable view as a join side.
func TestStreamStreamJoinNulls(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	str := serde.String{}
	l := kstreams.Stream(b, []string{"l"}, kstreams.ConsumedWith[*string, string](serde.Nullable[string](str), str))
	r := kstreams.Stream(b, []string{"r"}, kstreams.ConsumedWith[*string, string](serde.Nullable[string](str), str))
	sj := kstreams.StreamJoined[*string, string, string]{KeySerde: serde.Nullable[string](str), ValueSerde: str, OtherValueSerde: str}
	var sawNilKey bool
	kstreams.LeftJoinWithKey(l, r, func(k *string, a string, b *string) *string {
		if k == nil {
			sawNilKey = true
		}
		if a == "drop" {
			return nil // a null result is forwarded as a null value
		}
		s := a + "+" + ptrString(b)
		return &s
	}, kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(10*time.Millisecond), sj).
		To("out", kstreams.ProducedWith[*string, *string](serde.Nullable[string](str), serde.Nullable[string](str)))
	// A view over one side: its joiner sees *string values.
	kstreams.Join(kstreams.Nullable(l), r, func(a *string, b string) string { return "view:" + *a + "+" + b },
		kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(10*time.Millisecond), kstreams.StreamJoined[*string, *string, string]{KeySerde: serde.Nullable[string](str), ValueSerde: serde.Nullable[string](str), OtherValueSerde: str}).
		To("view", kstreams.ProducedWith[*string, string](serde.Nullable[string](str), str))
	d := build(t, b, kstreamstest.Config{ApplicationID: "app"})
	for _, p := range []struct {
		topic string
		key   []byte
		value []byte
		ts    int64
	}{{"l", nil, []byte("n"), 1}, {"l", []byte("k"), []byte("drop"), 2}, {"r", []byte("k"), []byte("x"), 3}, {"l", []byte("k"), []byte("v"), 4}} {
		if err := d.Pipe(p.topic, p.key, p.value, p.ts); err != nil {
			t.Fatal(err)
		}
	}
	got := d.Records("out")
	if len(got) != 3 || got[0].Key != nil || string(got[0].Value) != "n+null" || got[1].Value != nil || string(got[1].Key) != "k" ||
		string(got[2].Value) != "v+x" || got[2].Timestamp != 4 {
		t.Errorf("left join output %+v", got)
	}
	if !sawNilKey {
		t.Error("the joiner did not see the null key as nil")
	}
	view := d.Records("view")
	if len(view) != 2 || string(view[0].Value) != "view:drop+x" || string(view[1].Value) != "view:v+x" {
		t.Errorf("view join output %+v", view)
	}
}

// KStreamKStreamJoinTest.shouldThrottleEmitNonJoinedOuterRecordsEvenWhenClockDrift:
// with Kafka's default emit interval of one second of wall-clock time, a
// scan of the shared store within the second after the last one is skipped.
func TestStreamStreamOuterJoinThrottlesScansByWallClock(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	c := kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})
	l, r := kstreams.Stream(b, []string{"l"}, c), kstreams.Stream(b, []string{"r"}, c)
	kstreams.OuterJoin(l, r, func(a, b *string) string { return ptrString(a) + ptrString(b) },
		kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(time.Second), kstreams.StreamJoined[string, string, string]{}).
		To("out", kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	d := build(t, b, kstreamstest.Config{ApplicationID: "app", DefaultKeySerde: serde.Erase[string](serde.String{}),
		DefaultValueSerde: serde.Erase[string](serde.String{}), OuterJoinEmitIntervalMs: 1000, WallClockStart: time.UnixMilli(1000)})
	wall := int64(1000)
	step := func(key string, ts, at int64, want ...string) {
		t.Helper()
		if err := d.AdvanceWallClock(time.Duration(at-wall) * time.Millisecond); err != nil {
			t.Fatal(err)
		}
		wall = at
		if err := d.Pipe("r", []byte(key), []byte("v"+key[3:]), ts); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, rec := range d.ReadOutput("out") {
			got = append(got, fmt.Sprintf("%s:%s@%d", rec.Key, rec.Value, rec.Timestamp))
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("after %s: output %v, want %v", key, got, want)
		}
	}
	step("key1", 10000, 1000)
	step("key2", 13000, 2100, "key1:nullv1@10000")
	step("key3", 15000, 2500) // throttled: key2's window has closed, but no scan
	step("key4", 17000, 4000, "key2:nullv2@13000", "key3:nullv3@15000")
}

// KStreamKStreamJoinTest.shouldJoinWithCustomStoreSuppliers: both, this or
// the other side's store from a supplier.
func TestStreamStreamJoinWithCustomStoreSuppliers(t *testing.T) {
	w := kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(100 * time.Millisecond)
	sup := func(name string) *kstreams.WindowStoreSupplier {
		return &kstreams.WindowStoreSupplier{Name: name, Type: kstreams.InMemory, RetentionMs: w.Size() + w.GraceMs, WindowSizeMs: w.Size(), RetainDuplicates: true}
	}
	for _, c := range []struct{ this, other *kstreams.WindowStoreSupplier }{
		{sup("in-memory-join-store"), sup("in-memory-join-store-other")}, {sup("in-memory-join-store"), nil}, {nil, sup("in-memory-join-store-other")},
	} {
		b := kstreams.NewStreamsBuilder()
		cs := kstreams.ConsumedWith[string, int32](serde.String{}, serde.Integer{})
		l, r := kstreams.Stream(b, []string{"left"}, cs), kstreams.Stream(b, []string{"right"}, cs)
		kstreams.Join(l, r, func(a, b int32) int32 { return a + b }, w,
			kstreams.StreamJoined[string, int32, int32]{KeySerde: serde.String{}, ValueSerde: serde.Integer{}, OtherValueSerde: serde.Integer{},
				ThisStoreSupplier: c.this, OtherStoreSupplier: c.other}).
			To("out", kstreams.ProducedWith[string, int32](serde.String{}, serde.Integer{}))
		d := build(t, b, kstreamstest.Config{ApplicationID: "app"})
		left := kstreamstest.NewInputTopic[string, int32](d, "left", serde.String{}, serde.Integer{})
		right := kstreamstest.NewInputTopic[string, int32](d, "right", serde.String{}, serde.Integer{})
		for _, p := range []struct {
			in *kstreamstest.InputTopic[string, int32]
			k  string
			v  int32
			ts int64
		}{{left, "A", 1, 1}, {left, "B", 1, 2}, {right, "A", 1, 1}, {right, "B", 2, 2}} {
			if err := p.in.Pipe(p.k, p.v, p.ts); err != nil {
				t.Fatal(err)
			}
		}
		got, err := kstreamstest.ReadOutput[string, int32](d, "out", serde.String{}, serde.Integer{})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].Key != "A" || got[0].Value != 2 || got[0].Timestamp != 1 || got[1].Key != "B" || got[1].Value != 3 || got[1].Timestamp != 2 {
			t.Errorf("suppliers %v / %v: output %+v", c.this, c.other, got)
		}
	}
}

// StreamStreamJoinIntegrationTest.testMultiInner: a join's result joined
// again with the right stream.
func TestStreamStreamMultiInnerJoinMatrix(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	l, r := joinStreams(b)
	first := kstreams.Join(l, r, dash, tenSecondsDayGrace)
	kstreams.Join(first, r, dash, tenSecondsDayGrace).To("out")
	runSsJoinSteps(t, b, longStringDefaults, ssInputWithoutOutOfOrderData, [][]joinOutput{
		nil,
		nil,
		nil,
		{{value: "A-a-a", ts: 4}},
		{{value: "B-a-a", ts: 5}},
		{{value: "A-b-a", ts: 6}, {value: "B-b-a", ts: 6}, {value: "A-a-b", ts: 6}, {value: "B-a-b", ts: 6}, {value: "A-b-b", ts: 6}, {value: "B-b-b", ts: 6}},
		nil,
		nil,
		{{value: "C-a-a", ts: 9}, {value: "C-a-b", ts: 9}, {value: "C-b-a", ts: 9}, {value: "C-b-b", ts: 9}},
		{{value: "A-c-a", ts: 10}, {value: "A-c-b", ts: 10}, {value: "B-c-a", ts: 10}, {value: "B-c-b", ts: 10}, {value: "C-c-a", ts: 10}, {value: "C-c-b", ts: 10}, {value: "A-a-c", ts: 10}, {value: "B-a-c", ts: 10}, {value: "A-b-c", ts: 10}, {value: "B-b-c", ts: 10}, {value: "C-a-c", ts: 10}, {value: "C-b-c", ts: 10}, {value: "A-c-c", ts: 10}, {value: "B-c-c", ts: 10}, {value: "C-c-c", ts: 10}},
		nil,
		nil,
		nil,
		{{value: "A-d-a", ts: 14}, {value: "A-d-b", ts: 14}, {value: "A-d-c", ts: 14}, {value: "B-d-a", ts: 14}, {value: "B-d-b", ts: 14}, {value: "B-d-c", ts: 14}, {value: "C-d-a", ts: 14}, {value: "C-d-b", ts: 14}, {value: "C-d-c", ts: 14}, {value: "A-a-d", ts: 14}, {value: "B-a-d", ts: 14}, {value: "A-b-d", ts: 14}, {value: "B-b-d", ts: 14}, {value: "C-a-d", ts: 14}, {value: "C-b-d", ts: 14}, {value: "A-c-d", ts: 14}, {value: "B-c-d", ts: 14}, {value: "C-c-d", ts: 14}, {value: "A-d-d", ts: 14}, {value: "B-d-d", ts: 14}, {value: "C-d-d", ts: 14}},
		{{value: "D-a-a", ts: 15}, {value: "D-a-b", ts: 15}, {value: "D-a-c", ts: 15}, {value: "D-a-d", ts: 15}, {value: "D-b-a", ts: 15}, {value: "D-b-b", ts: 15}, {value: "D-b-c", ts: 15}, {value: "D-b-d", ts: 15}, {value: "D-c-a", ts: 15}, {value: "D-c-b", ts: 15}, {value: "D-c-c", ts: 15}, {value: "D-c-d", ts: 15}, {value: "D-d-a", ts: 15}, {value: "D-d-b", ts: 15}, {value: "D-d-c", ts: 15}, {value: "D-d-d", ts: 15}},
		nil,
		nil,
	})
}

// StreamStreamJoinIntegrationTest.testSelfJoin: a stream joined with
// itself. Kafka's test builds it with the self-join optimization; the
// unoptimized join StoatFlow builds emits the same records in the same
// order, as each record meets the other side's store once before and once
// after it is put in its own.
func TestStreamStreamSelfJoinMatrix(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	l := kstreams.Stream[int64, string](b, []string{"left"})
	kstreams.Join(l, l, dash, tenSecondsDayGrace).To("out")
	steps := []ssJoinInput{{false, false, "", 1}, {false, false, "A", 2}, {false, false, "B", 3}, {false, false, "", 4},
		{false, false, "C", 5}, {false, false, "", 6}, {false, false, "D", 7}}
	runSsJoinSteps(t, b, longStringDefaults, steps, [][]joinOutput{
		nil,
		{{value: "A-A", ts: 2}},
		{{value: "B-A", ts: 3}, {value: "A-B", ts: 3}, {value: "B-B", ts: 3}},
		nil,
		{{value: "C-A", ts: 5}, {value: "C-B", ts: 5}, {value: "A-C", ts: 5}, {value: "B-C", ts: 5}, {value: "C-C", ts: 5}},
		nil,
		{{value: "D-A", ts: 7}, {value: "D-B", ts: 7}, {value: "D-C", ts: 7}, {value: "A-D", ts: 7}, {value: "B-D", ts: 7}, {value: "C-D", ts: 7}, {value: "D-D", ts: 7}},
	})
}

// Records far behind stream time. Each window store expires records by the
// stream time of its own puts, as Kafka Streams' do: a late right record
// still finds a left record its store keeps (even one already emitted
// without a partner), while a late left record finds nothing in the right
// store, whose own time has moved on, and an outer side emits it at once.
// Every put is logged, also one the store drops as expired: Kafka Streams'
// change-logging layer logs the put the store below skips.
func TestStreamStreamOuterJoinRecordsBeyondRetention(t *testing.T) {
	f := newJoinFixture(t, true, kstreams.JoinWindowsOfTimeDifferenceAndGrace(100*time.Millisecond, 10*time.Millisecond))
	f.l(t, 1, "A1", 1000)
	f.r(t, 2, 20, 5000) // the left record's window closed long ago
	f.expect(t, "1:A1+null@1000")
	f.r(t, 1, 10, 1000) // the left store has seen nothing after 1000: A1 is still there
	f.expect(t, "1:A1+10@1000")
	f.l(t, 2, "A2", 10) // the right store's time is 5000: its window [0, 110] has expired there
	f.expect(t, "2:A2+null@10")
	logged := 0
	for _, store := range []string{"KSTREAM-OUTERTHIS-0000000004-store", "KSTREAM-OUTEROTHER-0000000005-store"} {
		logged += len(f.d.Changelog(store))
	}
	if logged != 4 {
		t.Errorf("%d window store changelog records, want 4 (every put is logged)", logged)
	}
}
