package streams_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/stoatflow/stoatflow/examples/readonlystore"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
)

// TestKfakeReadOnlyStoreRestoresFromItsTopic: a read-only store has no
// changelog topic; an instance on an empty state directory restores it
// from the prices topic, its changelog, up to the group's committed
// offset, and its orders see the prices the first instance had stored.
func TestKfakeReadOnlyStoreRestoresFromItsTopic(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 1, "orders", "prices", "out")
	args := map[string]string{"input": "orders", "prices": "prices", "output": "out"}
	build := func() (*streams.KafkaStreams, *commitHooks) {
		topo, err := readonlystore.Build(args)
		if err != nil {
			t.Fatal(err)
		}
		hooks := newCommitHooks(t)
		return startApp(t, topo, appConfig(t, addr, "readonly", t.TempDir()), streams.WithHooks(hooks)), hooks
	}
	ks, _ := build()
	testkafka.Produce(t, addr,
		testkafka.Record{Topic: "prices", Partition: 0, Key: []byte("a"), Value: []byte("1.00")},
		testkafka.Record{Topic: "prices", Partition: 0, Key: []byte("b"), Value: []byte("2.00")},
		testkafka.Record{Topic: "prices", Partition: 0, Key: []byte("b")})
	testkafka.Produce(t, addr, testkafka.Record{Topic: "orders", Partition: 0, Key: []byte("a"), Value: []byte("first")})
	if _, err := testkafka.ReadCommitted(addr, "out", 1, 30*time.Second, time.Second); err != nil {
		t.Fatal(err)
	}
	closeApp(t, ks)

	ks, hooks := build() // a new state directory: the store restores from the prices topic
	defer closeApp(t, ks)
	testkafka.Produce(t, addr,
		testkafka.Record{Topic: "orders", Partition: 0, Key: []byte("a"), Value: []byte("second")},
		testkafka.Record{Topic: "orders", Partition: 0, Key: []byte("b"), Value: []byte("third")})
	got, err := testkafka.ReadCommitted(addr, "out", 3, 30*time.Second, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var values []string
	for _, r := range got {
		values = append(values, string(r.Value))
	}
	if want := "first@1.00 second@1.00 third@unpriced"; strings.Join(values, " ") != want {
		t.Fatalf("output %q, want %q", strings.Join(values, " "), want)
	}
	hooks.mu.Lock()
	full, restored := hooks.full[state.TopicPartition{Topic: "prices", Partition: 0}.String()]
	n := hooks.restored[state.TopicPartition{Topic: "prices", Partition: 0}.String()]
	hooks.mu.Unlock()
	if !restored || !full || n != 3 {
		t.Errorf("the store's restore from the prices topic: started %v, in full %v, %d records; want the 3 in full", restored, full, n)
	}
	cl, err := testkafka.NewClient(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	topics, err := kadm.NewClient(cl).ListTopics(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, topic := range topics.Names() {
		if strings.HasSuffix(topic, "-changelog") {
			t.Errorf("a changelog topic %s exists: the prices topic is the read-only store's changelog", topic)
		}
	}
}
