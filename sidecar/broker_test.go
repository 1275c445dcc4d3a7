package sidecar

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// TestEmbeddedBrokerHidesAbortedTransactions checks what the demo relies on
// from the embedded broker with franz-go's transactional producer: a
// committed transaction is visible to read_committed consumers, an aborted
// one never is, and the broker's data survives a restart from its
// directory.
func TestEmbeddedBrokerHidesAbortedTransactions(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := filepath.Join(t.TempDir(), "broker")
	b, err := startEmbeddedBroker(dir, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	topic := "txn-check"
	if err := b.CreateTopics(ctx, []string{topic}, 1); err != nil {
		t.Fatal(err)
	}
	p, err := kgo.NewClient(kgo.SeedBrokers(b.Addrs()...), kgo.TransactionalID("txn-check-1"),
		kgo.DefaultProduceTopic(topic), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	send := func(v string, commit bool) {
		t.Helper()
		if err := p.BeginTransaction(); err != nil {
			t.Fatal(err)
		}
		// Wait for the ack so that the aborted record reaches the log
		// (an abort drops records not yet sent).
		if err := p.ProduceSync(ctx, &kgo.Record{Partition: 0, Value: []byte(v)}).FirstErr(); err != nil {
			t.Fatal(err)
		}
		if err := p.EndTransaction(ctx, kgo.TransactionEndTry(commit)); err != nil {
			t.Fatal(err)
		}
	}
	send("a", true)
	send("b", false)
	send("c", true)
	p.Close()

	read := func(addrs []string) []string {
		// Linger a second for a record that should not be there.
		recs, err := testkafka.ReadCommitted(joinAddrs(addrs), topic, 2, 15*time.Second, time.Second)
		if err != nil {
			t.Error(err)
		}
		var got []string
		for _, r := range recs {
			got = append(got, string(r.Value))
		}
		return got
	}
	if got := read(b.Addrs()); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("read_committed got %q, want [a c]", got)
	}
	b.Close()
	b, err = startEmbeddedBroker(dir, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if got := read(b.Addrs()); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("after a restart read_committed got %q, want [a c]", got)
	}
}
