package kstreamstest_test

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/internal/storeformat"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// fkCase is one configuration of KTableKTableForeignKeyJoinIntegrationTest's
// matrix: inner or left join, the result materialized as "store" or not.
type fkCase struct {
	left, materialized bool
	// rejoin joins the result with the left table again (to rejoin-output),
	// which needs the result's value getter.
	rejoin bool
}

func (c fkCase) String() string {
	return fmt.Sprintf("left=%v/materialized=%v/rejoin=%v", c.left, c.materialized, c.rejoin)
}

var fkCases = []fkCase{{false, false, false}, {false, true, false}, {true, false, false}, {true, true, false},
	{false, false, true}, {false, true, true}, {true, false, true}, {true, true, true}}

// fkHarness runs that test's topology: left_table and right_table of
// Strings, the foreign key after the '|' of a left value, the joiner
// "(" + l + "," + r + ")", the result written to output.
type fkHarness struct {
	t  *testing.T
	c  fkCase
	d  *kstreamstest.Driver
	fk func(string) (string, bool)
}

func newFKHarness(t *testing.T, c fkCase, fk func(string) (string, bool)) *fkHarness {
	t.Helper()
	if fk == nil {
		fk = func(v string) (string, bool) {
			_, after, _ := strings.Cut(v, "|")
			return after, true
		}
	}
	b := kstreams.NewStreamsBuilder()
	in := kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})
	left := kstreams.Table(b, "left_table", in)
	right := kstreams.Table(b, "right_table", in)
	mat := kstreams.Materialized[string, string]{ValueSerde: serde.String{}, CachingDisabled: true}
	if c.materialized {
		mat.Name, mat.StoreType = "store", kstreams.InMemory
	}
	var out *kstreams.KTable[string, string]
	if c.left {
		out = kstreams.TableForeignKeyLeftJoin(left, right, fk, func(l string, r *string) string {
			if r == nil {
				return "(" + l + ",null)"
			}
			return "(" + l + "," + *r + ")"
		}, mat)
	} else {
		out = kstreams.TableForeignKeyJoin(left, right, fk, func(l, r string) string { return "(" + l + "," + r + ")" }, mat)
	}
	out.ToStream().To("output", kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	if c.rejoin {
		rejoinMat := kstreams.Materialized[string, string]{ValueSerde: serde.String{}, CachingDisabled: true}
		if c.materialized {
			rejoinMat.Name, rejoinMat.StoreType = "store-rejoin", kstreams.InMemory
		}
		var re *kstreams.KTable[string, string]
		if c.left {
			re = kstreams.TableTableLeftJoin(out, left, func(r string, l *string) string {
				if l == nil {
					return "rejoin(" + r + ",null)"
				}
				return "rejoin(" + r + "," + *l + ")"
			}, rejoinMat)
		} else {
			re = kstreams.TableTableJoin(out, left, func(r, l string) string { return "rejoin(" + r + "," + l + ")" }, rejoinMat)
		}
		re.ToStream().To("rejoin-output", kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	}
	d := build(t, b, kstreamstest.Config{ApplicationID: "fk", DefaultKeySerde: serde.Erase[string](serde.String{}),
		DefaultValueSerde: serde.Erase[string](serde.String{})})
	return &fkHarness{t: t, c: c, d: d, fk: fk}
}

const fkBase = 1_000

func (h *fkHarness) pipe(topic, key string, value *string, ts int64) {
	h.t.Helper()
	var v []byte
	if value != nil {
		v = []byte(*value)
	}
	if err := h.d.Pipe(topic, []byte(key), v, fkBase+ts); err != nil {
		h.t.Fatal(err)
	}
}

func (h *fkHarness) left(key string, value *string, ts int64) {
	h.t.Helper()
	h.pipe("left_table", key, value, ts)
}
func (h *fkHarness) right(key string, value *string, ts int64) {
	h.t.Helper()
	h.pipe("right_table", key, value, ts)
}

// expect checks the output since the last check as readKeyValuesToMap
// reads it: the last value per key ("<null>" for a tombstone).
func (h *fkHarness) expect(want map[string]string) {
	h.t.Helper()
	h.expectTopic("output", want)
}

// expectRejoin checks rejoin-output as expect checks output.
func (h *fkHarness) expectRejoin(want map[string]string) {
	h.t.Helper()
	if h.c.rejoin {
		h.expectTopic("rejoin-output", want)
	}
}

func (h *fkHarness) expectTopic(topic string, want map[string]string) {
	h.t.Helper()
	got := map[string]string{}
	for _, r := range h.d.ReadOutput(topic) {
		v := "<null>"
		if r.Value != nil {
			v = string(r.Value)
		}
		got[string(r.Key)] = v
	}
	if want == nil {
		want = map[string]string{}
	}
	if !maps.Equal(got, want) {
		h.t.Errorf("%s %v, want %v", topic, got, want)
	}
}

// expectStore checks the rows of the materialized result, as its changelog
// leaves them.
func (h *fkHarness) expectStore(want map[string]string) {
	h.t.Helper()
	if !h.c.materialized {
		return
	}
	got := map[string]string{}
	for _, r := range h.d.Changelog("store") {
		if r.Value == nil {
			delete(got, string(r.Key))
		} else {
			got[string(r.Key)] = string(r.Value)
		}
	}
	if want == nil {
		want = map[string]string{}
	}
	if !maps.Equal(got, want) {
		h.t.Errorf("store %v, want %v", got, want)
	}
}

// pick is leftJoin ? l : inner.
func (h *fkHarness) pick(l, inner map[string]string) map[string]string {
	if h.c.left {
		return l
	}
	return inner
}

// KTableKTableForeignKeyJoinIntegrationTest.doJoinFromLeftThenDeleteLeftEntity.
func TestFKJoinFromLeftThenDeleteLeftEntity(t *testing.T) {
	for _, c := range fkCases {
		t.Run(c.String(), func(t *testing.T) {
			h := newFKHarness(t, c, nil)
			h.right("rhs1", sp("rhsValue1"), 0)
			h.right("rhs2", sp("rhsValue2"), 1)
			h.right("rhs3", sp("rhsValue3"), 2)
			h.expect(nil)
			h.expectRejoin(nil)
			h.expectStore(nil)
			h.left("lhs1", sp("lhsValue1|rhs1"), 3)
			h.left("lhs2", sp("lhsValue2|rhs2"), 4)
			both := map[string]string{"lhs1": "(lhsValue1|rhs1,rhsValue1)", "lhs2": "(lhsValue2|rhs2,rhsValue2)"}
			h.expect(both)
			h.expectRejoin(map[string]string{"lhs1": "rejoin((lhsValue1|rhs1,rhsValue1),lhsValue1|rhs1)",
				"lhs2": "rejoin((lhsValue2|rhs2,rhsValue2),lhsValue2|rhs2)"})
			h.expectStore(both)
			h.left("lhs3", sp("lhsValue3|rhs1"), 5)
			h.expect(map[string]string{"lhs3": "(lhsValue3|rhs1,rhsValue1)"})
			h.expectRejoin(map[string]string{"lhs3": "rejoin((lhsValue3|rhs1,rhsValue1),lhsValue3|rhs1)"})
			h.expectStore(map[string]string{"lhs1": "(lhsValue1|rhs1,rhsValue1)", "lhs2": "(lhsValue2|rhs2,rhsValue2)", "lhs3": "(lhsValue3|rhs1,rhsValue1)"})
			h.left("lhs1", nil, 6)
			h.expect(map[string]string{"lhs1": "<null>"})
			h.expectRejoin(map[string]string{"lhs1": "<null>"})
			h.expectStore(map[string]string{"lhs2": "(lhsValue2|rhs2,rhsValue2)", "lhs3": "(lhsValue3|rhs1,rhsValue1)"})
		})
	}
}

// KTableKTableForeignKeyJoinIntegrationTest.doJoinFromRightThenDeleteRightEntity.
func TestFKJoinFromRightThenDeleteRightEntity(t *testing.T) {
	for _, c := range fkCases {
		t.Run(c.String(), func(t *testing.T) {
			h := newFKHarness(t, c, nil)
			h.left("lhs1", sp("lhsValue1|rhs1"), 0)
			h.left("lhs2", sp("lhsValue2|rhs2"), 1)
			h.left("lhs3", sp("lhsValue3|rhs1"), 2)
			halves := map[string]string{"lhs1": "(lhsValue1|rhs1,null)", "lhs2": "(lhsValue2|rhs2,null)", "lhs3": "(lhsValue3|rhs1,null)"}
			h.expect(h.pick(halves, nil))
			h.expectStore(h.pick(halves, nil))
			h.right("rhs1", sp("rhsValue1"), 3)
			h.expect(map[string]string{"lhs1": "(lhsValue1|rhs1,rhsValue1)", "lhs3": "(lhsValue3|rhs1,rhsValue1)"})
			h.expectStore(h.pick(
				map[string]string{"lhs1": "(lhsValue1|rhs1,rhsValue1)", "lhs2": "(lhsValue2|rhs2,null)", "lhs3": "(lhsValue3|rhs1,rhsValue1)"},
				map[string]string{"lhs1": "(lhsValue1|rhs1,rhsValue1)", "lhs3": "(lhsValue3|rhs1,rhsValue1)"}))
			h.right("rhs2", sp("rhsValue2"), 4)
			h.expect(map[string]string{"lhs2": "(lhsValue2|rhs2,rhsValue2)"})
			all := map[string]string{"lhs1": "(lhsValue1|rhs1,rhsValue1)", "lhs2": "(lhsValue2|rhs2,rhsValue2)", "lhs3": "(lhsValue3|rhs1,rhsValue1)"}
			h.expectStore(all)
			h.right("rhs3", sp("rhsValue3"), 5)
			h.expect(nil)
			h.expectStore(all)
			h.right("rhs1", nil, 6)
			h.expect(h.pick(map[string]string{"lhs1": "(lhsValue1|rhs1,null)", "lhs3": "(lhsValue3|rhs1,null)"},
				map[string]string{"lhs1": "<null>", "lhs3": "<null>"}))
			h.expectStore(h.pick(
				map[string]string{"lhs1": "(lhsValue1|rhs1,null)", "lhs2": "(lhsValue2|rhs2,rhsValue2)", "lhs3": "(lhsValue3|rhs1,null)"},
				map[string]string{"lhs2": "(lhsValue2|rhs2,rhsValue2)"}))
		})
	}
}

// KTableKTableForeignKeyJoinIntegrationTest.shouldEmitTombstoneWhenDeletingNonJoiningRecords
// and shouldNotEmitTombstonesWhenDeletingNonExistingRecords.
func TestFKJoinTombstonesOfNonJoiningRecords(t *testing.T) {
	for _, c := range fkCases {
		t.Run(c.String(), func(t *testing.T) {
			h := newFKHarness(t, c, nil)
			h.left("lhs1", nil, 0) // never existed: nothing to retract
			h.expect(nil)
			h.left("lhs1", sp("lhsValue1|rhs1"), 0)
			h.expect(h.pick(map[string]string{"lhs1": "(lhsValue1|rhs1,null)"}, nil))
			h.expectStore(h.pick(map[string]string{"lhs1": "(lhsValue1|rhs1,null)"}, nil))
			// An inner join cannot know whether it emitted a result: it
			// retracts all the same.
			h.left("lhs1", nil, 1)
			h.expect(map[string]string{"lhs1": "<null>"})
			h.expectStore(nil)
			h.left("lhs1", nil, 2)
			h.expect(nil)
			h.expectStore(nil)
		})
	}
}

// KTableKTableForeignKeyJoinIntegrationTest.joinShouldProduceNullsWhenValueHasNonMatchingForeignKey.
func TestFKJoinNonMatchingForeignKey(t *testing.T) {
	for _, c := range fkCases {
		t.Run(c.String(), func(t *testing.T) {
			h := newFKHarness(t, c, nil)
			h.left("lhs1", sp("lhsValue1|rhs1"), 0)
			h.expect(h.pick(map[string]string{"lhs1": "(lhsValue1|rhs1,null)"}, nil))
			h.expectStore(h.pick(map[string]string{"lhs1": "(lhsValue1|rhs1,null)"}, nil))
			h.left("lhs1", sp("lhsValue1|rhs2"), 1)
			h.expect(h.pick(map[string]string{"lhs1": "(lhsValue1|rhs2,null)"}, map[string]string{"lhs1": "<null>"}))
			h.expectStore(h.pick(map[string]string{"lhs1": "(lhsValue1|rhs2,null)"}, nil))
			h.left("lhs1", sp("lhsValue1|rhs3"), 2)
			h.expect(h.pick(map[string]string{"lhs1": "(lhsValue1|rhs3,null)"}, map[string]string{"lhs1": "<null>"}))
			h.expectStore(h.pick(map[string]string{"lhs1": "(lhsValue1|rhs3,null)"}, nil))
			h.right("rhs1", sp("rhsValue1"), 3) // no longer referenced
			h.expect(nil)
			h.expectStore(h.pick(map[string]string{"lhs1": "(lhsValue1|rhs3,null)"}, nil))
			h.left("lhs1", sp("lhsValue1|rhs1"), 4)
			h.expect(map[string]string{"lhs1": "(lhsValue1|rhs1,rhsValue1)"})
			h.expectStore(map[string]string{"lhs1": "(lhsValue1|rhs1,rhsValue1)"})
			h.left("lhs1", sp("lhsValue1|rhs2"), 5)
			h.expect(h.pick(map[string]string{"lhs1": "(lhsValue1|rhs2,null)"}, map[string]string{"lhs1": "<null>"}))
			h.expectStore(h.pick(map[string]string{"lhs1": "(lhsValue1|rhs2,null)"}, nil))
		})
	}
}

// KTableKTableForeignKeyJoinIntegrationTest.shouldUnsubscribeOldForeignKeyIfLeftSideIsUpdated.
func TestFKJoinUnsubscribesOldForeignKey(t *testing.T) {
	for _, c := range fkCases {
		t.Run(c.String(), func(t *testing.T) {
			h := newFKHarness(t, c, nil)
			h.right("rhs1", sp("rhsValue1"), 0)
			h.right("rhs2", sp("rhsValue2"), 1)
			h.expect(nil)
			h.left("lhs1", sp("lhsValue1|rhs1"), 2)
			h.expect(map[string]string{"lhs1": "(lhsValue1|rhs1,rhsValue1)"})
			h.expectStore(map[string]string{"lhs1": "(lhsValue1|rhs1,rhsValue1)"})
			h.left("lhs1", sp("lhsValue1|rhs2"), 3)
			h.expect(map[string]string{"lhs1": "(lhsValue1|rhs2,rhsValue2)"})
			h.expectStore(map[string]string{"lhs1": "(lhsValue1|rhs2,rhsValue2)"})
			h.right("rhs1", sp("rhsValue1Delta"), 4)
			h.expect(nil)
			h.expectStore(map[string]string{"lhs1": "(lhsValue1|rhs2,rhsValue2)"})
		})
	}
}

// KTableKTableForeignKeyJoinIntegrationTest.shouldEmitRecordOnNullForeignKeyForLeftJoins:
// a left join with a null foreign key joins with null.
func TestFKLeftJoinNullForeignKey(t *testing.T) {
	for _, c := range []fkCase{{left: true, materialized: false}, {left: true, materialized: true}} {
		t.Run(c.String(), func(t *testing.T) {
			h := newFKHarness(t, c, func(string) (string, bool) { return "", false })
			h.left("lhs1", sp("lhsValue1|rhs1"), 0)
			h.expect(map[string]string{"lhs1": "(lhsValue1|rhs1,null)"})
			h.expectStore(map[string]string{"lhs1": "(lhsValue1|rhs1,null)"})
		})
	}
}

// The inner join drops a record whose foreign key is null, and counts it,
// retracting the result of the old foreign key.
func TestFKInnerJoinNullForeignKeyRetracts(t *testing.T) {
	h := newFKHarness(t, fkCase{left: false, materialized: true}, func(v string) (string, bool) {
		_, after, _ := strings.Cut(v, "|")
		return after, after != "returnNull"
	})
	h.right("rhs1", sp("rhsValue1"), 0)
	h.left("lhs1", sp("lhsValue1|rhs1"), 1)
	h.expect(map[string]string{"lhs1": "(lhsValue1|rhs1,rhsValue1)"})
	before := len(h.d.Dropped())
	h.left("lhs1", sp("lhsValue1|returnNull"), 2)
	h.expect(map[string]string{"lhs1": "<null>"})
	h.expectStore(nil)
	dropped := h.d.Dropped()[before:]
	if len(dropped) != 1 || !strings.Contains(dropped[0].Reason, "null foreign key") {
		t.Errorf("dropped %+v, want the record with the null foreign key", dropped)
	}
}

// subscriptionStore is the subscription store's rows, by combined key, as
// its changelog leaves them.
func subscriptionStore(t *testing.T, d *kstreamstest.Driver, store string) map[string]storeformat.Subscription {
	t.Helper()
	out := map[string]storeformat.Subscription{}
	for _, r := range d.Changelog(store) {
		if r.Value == nil {
			delete(out, string(r.Key))
			continue
		}
		s, err := storeformat.DecodeSubscription(r.Value)
		if err != nil {
			t.Fatal(err)
		}
		out[string(r.Key)] = s
	}
	return out
}

// KTableKTableForeignKeyJoinIntegrationTest.shouldEmitRecordWhenOldAndNewFkDiffer:
// a left join whose foreign key turns null unsubscribes the old one.
func TestFKLeftJoinForeignKeyTurnsNull(t *testing.T) {
	for _, c := range []fkCase{{left: true, materialized: false}, {left: true, materialized: true}} {
		t.Run(c.String(), func(t *testing.T) {
			h := newFKHarness(t, c, func(v string) (string, bool) {
				_, after, _ := strings.Cut(v, "|")
				return after, after != "returnNull"
			})
			store := "KTABLE-FK-JOIN-SUBSCRIPTION-STATE-STORE-0000000010"
			key := storeformat.AppendCombinedKey(nil, []byte("rhs1"), []byte("lhs1"))
			h.left("lhs1", sp("lhsValue1|rhs1"), 0)
			h.expect(map[string]string{"lhs1": "(lhsValue1|rhs1,null)"})
			if _, ok := subscriptionStore(t, h.d, store)[string(key)]; !ok {
				t.Fatalf("no subscription of lhs1 to rhs1 in %s", store)
			}
			h.left("lhs1", sp("lhsValue1|returnNull"), 0)
			h.expect(map[string]string{"lhs1": "(lhsValue1|returnNull,null)"})
			h.expectStore(map[string]string{"lhs1": "(lhsValue1|returnNull,null)"})
			if _, ok := subscriptionStore(t, h.d, store)[string(key)]; ok {
				t.Errorf("lhs1 is still subscribed to rhs1")
			}
		})
	}
}

// The instructions Kafka Streams 4.4's SubscriptionSendProcessorSupplier
// sends for each change of a left row (SubscriptionSendProcessorSupplierTest),
// read off the subscription-registration topic.
func TestFKJoinSubscriptionInstructions(t *testing.T) {
	type sent struct {
		fk string // "<null>" for a null key
		in storeformat.FKInstruction
	}
	D, DP, PN, PO := storeformat.DeleteKeyNoPropagate, storeformat.DeleteKeyAndPropagate,
		storeformat.PropagateNullIfNoFKValAvailable, storeformat.PropagateOnlyIfFKValAvailable
	steps := []struct {
		value       *string
		inner, left []sent
	}{
		{sp("v1|fk1"), []sent{{"fk1", PO}}, []sent{{"fk1", PN}}},                         // new row
		{sp("v2|fk1"), []sent{{"fk1", PO}}, []sent{{"fk1", PN}}},                         // same foreign key
		{sp("v3|fk2"), []sent{{"fk1", D}, {"fk2", PN}}, []sent{{"fk1", D}, {"fk2", PN}}}, // foreign key changed
		{sp("v4|"), []sent{{"fk2", DP}}, []sent{{"fk2", D}, {"<null>", PN}}},             // foreign key turned null
		{sp("v5|"), nil, []sent{{"<null>", PN}}},                                         // null stays null
		{sp("v6|fk3"), []sent{{"fk3", PO}}, []sent{{"fk3", PN}}},                         // null to a foreign key
		{nil, []sent{{"fk3", DP}}, []sent{{"fk3", D}, {"<null>", PN}}},                   // deleted
		{nil, nil, nil}, // deleted again
	}
	for _, c := range []fkCase{{left: false, materialized: false}, {left: true, materialized: false}} {
		t.Run(c.String(), func(t *testing.T) {
			h := newFKHarness(t, c, func(v string) (string, bool) {
				_, after, _ := strings.Cut(v, "|")
				return after, after != ""
			})
			topic := "fk-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic"
			seen := 0
			for i, s := range steps {
				h.left("pk", s.value, int64(i))
				all := h.d.Records(topic)
				var got []sent
				for _, r := range all[seen:] {
					sub, err := storeformat.DecodeSubscription(r.Value)
					if err != nil {
						t.Fatal(err)
					}
					fk := "<null>"
					if r.Key != nil {
						fk = string(r.Key)
					}
					if !bytes.Equal(sub.PrimaryKey, []byte("pk")) || !sub.HasPartition || sub.PrimaryPartition != 0 || sub.Version != 1 {
						t.Errorf("step %d: subscription %+v", i, sub)
					}
					if (sub.Hash == nil) != (s.value == nil) {
						t.Errorf("step %d: hash %v for value %v", i, sub.Hash, s.value)
					} else if s.value != nil && *sub.Hash != storeformat.Murmur3Hash128([]byte(*s.value)) {
						t.Errorf("step %d: hash %v is not that of %q", i, *sub.Hash, *s.value)
					}
					got = append(got, sent{fk, sub.Instruction})
				}
				seen = len(all)
				want := s.inner
				if c.left {
					want = s.left
				}
				if !slices.Equal(got, want) {
					t.Errorf("step %d (%v): sent %v, want %v", i, s.value, got, want)
				}
			}
		})
	}
}

// ResponseJoinProcessorSupplierTest: a response computed from a left value
// that has changed since is dropped; the subscription-response topic
// carries the hash of the value it answers.
func TestFKJoinDropsStaleResponses(t *testing.T) {
	h := newFKHarness(t, fkCase{left: false, materialized: true}, nil)
	h.right("rhs1", sp("rhsValue1"), 0)
	h.left("lhs1", sp("lhsValue1|rhs1"), 1)
	h.expect(map[string]string{"lhs1": "(lhsValue1|rhs1,rhsValue1)"})
	topic := "fk-KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000014-topic"
	resp := h.d.Records(topic)
	if len(resp) != 1 {
		t.Fatalf("%d responses, want 1", len(resp))
	}
	r, err := storeformat.DecodeResponse(resp[0].Value)
	if err != nil {
		t.Fatal(err)
	}
	if r.Hash == nil || *r.Hash != storeformat.Murmur3Hash128([]byte("lhsValue1|rhs1")) || string(r.ForeignValue) != "rhsValue1" || string(resp[0].Key) != "lhs1" {
		t.Errorf("response %q → %+v", resp[0].Key, r)
	}
	// Replay the response after the left row changed: its hash no longer
	// matches, so it is dropped.
	h.left("lhs1", sp("lhsValue2|rhs1"), 2)
	h.expect(map[string]string{"lhs1": "(lhsValue2|rhs1,rhsValue1)"})
	task, ok := h.d.Task(kstreams.TaskID{Subtopology: 0, Partition: 0})
	if !ok {
		t.Fatal("no task 0_0")
	}
	before := len(h.d.Dropped())
	if err := task.Process(topic, 0, 100, resp[0].Key, resp[0].Value, fkBase+3, nil); err != nil {
		t.Fatal(err)
	}
	h.expect(nil)
	if dropped := h.d.Dropped()[before:]; len(dropped) != 1 || !strings.Contains(dropped[0].Reason, "hash mismatch") {
		t.Errorf("dropped %+v, want the stale response", dropped)
	}
	h.expectStore(map[string]string{"lhs1": "(lhsValue2|rhs1,rhsValue1)"})
}

// KTableKTableForeignKeyJoinScenarioTest.shouldWorkWithDefaultSerdes: the
// tables, the foreign-key join and a join of its result all take the
// default serdes (Integer keys, String values).
func TestFKJoinWithDefaultSerdes(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	a := kstreams.Table(b, "A", kstreams.Consumed[int32, string]{})
	bt := kstreams.Table(b, "B", kstreams.Consumed[int32, string]{})
	fk := kstreams.TableForeignKeyJoin(a, bt, func(v string) (int32, bool) {
		n, err := strconv.Atoi(strings.Split(v, "-")[0])
		return int32(n), err == nil
	}, func(av, bv string) string { return "(" + av + "," + bv + ")" }, kstreams.MaterializedAs[int32, string]("asdf"))
	kstreams.TableTableJoin(a, fk, func(av, fv string) string { return "(" + av + "," + fv + ")" }).ToStream().To("output")
	d := build(t, b, kstreamstest.Config{DefaultKeySerde: serde.Erase[int32](serde.Integer{}), DefaultValueSerde: serde.Erase[string](serde.String{})})
	a32, b32 := kstreamstest.NewInputTopic(d, "A", serde.Integer{}, serde.String{}), kstreamstest.NewInputTopic(d, "B", serde.Integer{}, serde.String{})
	if err := a32.Pipe(1, "999-alpha", 0); err != nil {
		t.Fatal(err)
	}
	if err := b32.Pipe(999, "beta", 0); err != nil {
		t.Fatal(err)
	}
	out, err := kstreamstest.ReadOutput(d, "output", serde.Integer{}, serde.String{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[int32]string{}
	for _, r := range out {
		got[r.Key] = r.Value
	}
	if want := map[int32]string{1: "(999-alpha,(999-alpha,beta))"}; !maps.Equal(got, want) {
		t.Errorf("output %v, want %v", got, want)
	}
}

// topicRecorder is UniqueTopicSerdeScope's serde: it notes every topic it
// serializes a value for, as topic + "--key" or "--value".
type topicRecorder[T any] struct {
	inner  serde.Serde[T]
	suffix string
	seen   map[string]bool
}

func (r topicRecorder[T]) Serialize(topic string, v T) ([]byte, error) {
	r.seen[topic+r.suffix] = true
	return r.inner.Serialize(topic, v)
}

func (r topicRecorder[T]) Deserialize(topic string, b []byte) (T, error) {
	return r.inner.Deserialize(topic, b)
}

// KTableKTableForeignKeyJoinScenarioTest.shouldUseExpectedTopicsWithSerde:
// the serdes see the internal topics and the join's three pseudo-topics
// (-fk, -pk, -vh) and nothing else.
func TestFKJoinSerdeTopics(t *testing.T) {
	seen := map[string]bool{}
	keys := topicRecorder[int32]{serde.Integer{}, "--key", seen}
	values := topicRecorder[string]{serde.String{}, "--value", seen}
	b := kstreams.NewStreamsBuilder()
	in := kstreams.ConsumedWith[int32, string](keys, values)
	left := kstreams.Table(b, "left_table", in)
	right := kstreams.Table(b, "right_table", in)
	kstreams.TableForeignKeyJoin(left, right, func(v string) (int32, bool) {
		n, err := strconv.Atoi(strings.Split(v, "|")[1])
		return int32(n), err == nil
	}, func(l, r string) string { return "(" + l + "," + r + ")" }, kstreams.Materialized[int32, string]{ValueSerde: values}).
		ToStream().To("output-topic", kstreams.ProducedWith[int32, string](keys, values))
	app := "ktable-ktable-joinOnForeignKey"
	d := build(t, b, kstreamstest.Config{ApplicationID: app})
	if err := kstreamstest.NewInputTopic(d, "left_table", serde.Integer{}, serde.String{}).Pipe(2, "lhsValue1|1", 0); err != nil {
		t.Fatal(err)
	}
	if err := kstreamstest.NewInputTopic(d, "right_table", serde.Integer{}, serde.String{}).Pipe(1, "rhsValue1", 0); err != nil {
		t.Fatal(err)
	}
	want := []string{
		app + "-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic-fk--key",
		app + "-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic-pk--key",
		app + "-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic-vh--value",
		app + "-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic--key",
		app + "-KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000014-topic--key",
		app + "-KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000014-topic--value",
		app + "-left_table-STATE-STORE-0000000000-changelog--key",
		app + "-left_table-STATE-STORE-0000000000-changelog--value",
		app + "-right_table-STATE-STORE-0000000003-changelog--key",
		app + "-right_table-STATE-STORE-0000000003-changelog--value",
		"output-topic--key",
		"output-topic--value",
	}
	got := slices.Sorted(maps.Keys(seen))
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("serdes saw\n %s\nwant\n %s", strings.Join(got, "\n "), strings.Join(want, "\n "))
	}
}
