package rocksdb

import (
	"fmt"
	"testing"

	"github.com/stoatflow/stoatflow/state"
)

var changelogTP = state.TopicPartition{Topic: "app-kv-changelog", Partition: 3}

func eq(t testing.TB, got, want any) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func put(t testing.TB, s state.KeyValueStore, kv ...string) {
	t.Helper()
	for i := 0; i < len(kv); i += 2 {
		if err := s.Put([]byte(kv[i]), []byte(kv[i+1])); err != nil {
			t.Fatal(err)
		}
	}
}

func commit(t testing.TB, s state.Store, off int64) {
	t.Helper()
	if err := s.Commit(map[state.TopicPartition]*int64{changelogTP: state.Offset(off)}); err != nil {
		t.Fatal(err)
	}
}
