package kstreamstest

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
)

// TestJoinStoresRestoreWhatTheJoinStored: random input with duplicates, null
// values, out-of-order and late records through an outer join; a fresh
// store restored from each join store's changelog holds what the task's
// store holds: the window stores' keys with their sequence numbers and the
// shared store's value lists and deletes.
func TestJoinStoresRestoreWhatTheJoinStored(t *testing.T) {
	str := serde.String{}
	b := kstreams.NewStreamsBuilder()
	c := kstreams.ConsumedWith[string, string](str, str)
	l, r := kstreams.Stream(b, []string{"l"}, c), kstreams.Stream(b, []string{"r"}, c)
	sj := kstreams.StreamJoined[string, string, string]{KeySerde: str, ValueSerde: str, OtherValueSerde: str}
	kstreams.OuterJoin(l, r, func(a, b *string) string { return fmt.Sprint(a != nil, b != nil) },
		kstreams.JoinWindowsOfTimeDifferenceAndGrace(2*time.Second, time.Second), sj).To("out", kstreams.ProducedWith[string, string](str, str))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	d, err := New(topo, Config{ApplicationID: "app", Partitions: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	rng := rand.New(rand.NewSource(7))
	ts := int64(10_000)
	for range 600 {
		ts += rng.Int63n(400) - 150
		topic := []string{"l", "r"}[rng.Intn(2)]
		var v []byte
		if rng.Intn(10) > 0 {
			v = []byte{byte('a' + rng.Intn(3))}
		}
		if err := d.Pipe(topic, []byte{byte('k' + rng.Intn(6))}, v, ts); err != nil {
			t.Fatal(err)
		}
	}
	// Records no one joins yet: the shared store holds them at the end.
	for i, k := range []string{"x", "y", "z", "x"} {
		if err := d.Pipe([]string{"l", "r"}[i%2], []byte(k), []byte("v"), ts+int64(i)); err != nil {
			t.Fatal(err)
		}
	}
	if len(d.Records("out")) < 100 {
		t.Fatalf("%d outputs: the input exercises too little", len(d.Records("out")))
	}
	checked, shared := 0, 0
	for id, stores := range d.stores {
		for name, s := range stores {
			spec, _ := topo.Store(name)
			var recs []state.ChangelogRecord
			for _, r := range d.Changelog(name) {
				if r.Partition == id.Partition {
					recs = append(recs, state.ChangelogRecord{Key: r.Key, Value: r.Value, Timestamp: r.Timestamp})
				}
			}
			orig, restored := dumpAndRestore(t, spec, s, recs)
			if !slices.Equal(orig, restored) {
				t.Errorf("task %s store %s:\nwritten  %q\nrestored %q", id, name, orig, restored)
			}
			if spec.Kind == kstreams.KeyValueStoreKind {
				shared += len(orig)
			}
			checked++
		}
	}
	if checked != 6 || shared == 0 {
		t.Fatalf("checked %d task stores (want 3 stores on 2 partitions), %d shared entries", checked, shared)
	}
}
