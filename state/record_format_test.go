package state_test

import (
	"testing"

	"github.com/stoatflow/stoatflow/internal/storeformat"
	. "github.com/stoatflow/stoatflow/state"
)

// Kafka's changelog records, written out byte for byte (reference §4), are
// what ApplyChangelog must read: the key layouts are WindowKeySchema's
// (key ++ int64 start ++ int32 seqnum) and SessionKeySchema's (key ++ int64
// end ++ int64 start), and a timestamped store's record carries the value
// without its timestamp, which is the record timestamp.
func TestRestoreReadsKafkaChangelogRecords(t *testing.T) {
	kv := NewInMemoryKeyValue(KeyValueOptions{Name: "kv", Timestamped: true})
	defer kv.Close()
	if err := kv.ApplyChangelog([]ChangelogRecord{{Key: []byte("k"), Value: []byte("v"), Timestamp: 0x0102}}, changelogTP, 0); err != nil {
		t.Fatal(err)
	}
	got, _ := kv.Get([]byte("k"))
	eq(t, got, []byte{0, 0, 0, 0, 0, 0, 1, 2, 'v'})

	plain := NewInMemoryKeyValue(KeyValueOptions{Name: "plain"})
	defer plain.Close()
	if err := plain.ApplyChangelog([]ChangelogRecord{{Key: []byte("k"), Value: []byte("v"), Timestamp: 9}}, changelogTP, 0); err != nil {
		t.Fatal(err)
	}
	got, _ = plain.Get([]byte("k"))
	eq(t, got, []byte("v"))

	ws, err := NewInMemoryWindow(WindowOptions{Name: "w", RetentionMs: 1 << 40, Timestamped: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	windowRec := []byte{0xAB, 0, 0, 0, 0, 0, 0, 0x03, 0xe8, 0, 0, 0, 0} // key 0xAB, start 1000, seqnum 0
	if err := ws.ApplyChangelog([]ChangelogRecord{{Key: windowRec, Value: []byte("v"), Timestamp: 7}}, changelogTP, 0); err != nil {
		t.Fatal(err)
	}
	got, _ = ws.Fetch([]byte{0xAB}, 1000)
	eq(t, got, []byte{0, 0, 0, 0, 0, 0, 0, 7, 'v'})
	eq(t, storeformat.AppendWindowKey(nil, []byte{0xAB}, 1000, 0), windowRec)

	ss, err := NewInMemorySession(SessionOptions{Name: "s", RetentionMs: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	sessionRec := []byte{0xAB, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1} // key 0xAB, end 2, start 1
	if err := ss.ApplyChangelog([]ChangelogRecord{{Key: sessionRec, Value: []byte("agg"), Timestamp: 5}}, changelogTP, 0); err != nil {
		t.Fatal(err)
	}
	got, _ = ss.FetchSession([]byte{0xAB}, 1, 2)
	eq(t, got, []byte("agg"))
	eq(t, storeformat.AppendSessionKey(nil, []byte{0xAB}, 1, 2), sessionRec)

	vs, err := NewInMemoryVersioned(VersionedOptions{Name: "v", HistoryRetentionMs: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	defer vs.Close()
	if err := vs.ApplyChangelog([]ChangelogRecord{{Key: []byte("k"), Value: []byte("v"), Timestamp: 42}}, changelogTP, 0); err != nil {
		t.Fatal(err)
	}
	eq(t, fmtRec(vs.Get([]byte("k"))), "v[42,)")

	eq(t, TopicPartition{Topic: "app-store-changelog", Partition: 7}.String(), "app-store-changelog-7")
	raw, _ := Position{"t": {1: 2}}.MarshalBinary()
	eq(t, raw, []byte{0, 0, 0, 0, 1, 0, 0, 0, 1, 't', 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2})
}

func FuzzPositionDecode(f *testing.F) {
	p := Position{"in": {0: 5, 3: 9}, "other": {1: -1}}
	raw, _ := p.MarshalBinary()
	f.Add(raw)
	f.Add(append(raw, 0, 0, 0, 0))
	f.Add([]byte{0, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := UnmarshalPosition(b)
		if err != nil {
			return
		}
		again, _ := p.MarshalBinary()
		q, err := UnmarshalPosition(again)
		if err != nil {
			t.Fatal(err)
		}
		if len(q) != len(p) {
			t.Fatalf("round trip changed %v to %v", p, q)
		}
	})
}
