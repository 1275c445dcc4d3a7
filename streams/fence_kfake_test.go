package streams_test

import (
	"context"
	"encoding/binary"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/internal/assignment"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/streams"
)

// TestKfakeAbandonedTransactionIsFencedAtTakeover: a process of the
// application that died mid-transaction (a transactional id
// <app>-<process id>-1 whose transaction wrote to a changelog and the
// output and never ended, with a transaction timeout of 10 minutes) holds
// the restore of a new instance that takes its tasks; the instance, which
// finds the process outside the group, fences its transaction at once
// instead of waiting out its timeout, says so in its log, and the
// aborted records never count: the counts go on from the committed ones.
func TestKfakeAbandonedTransactionIsFencedAtTakeover(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	const app = "fence"
	first := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, app, t.TempDir()))
	words(t, addr, "in", 0, 200, vocab)
	checkCounts(t, readCounts(t, addr, "out", 200), wantCounts(200, vocab))
	closeApp(t, first)

	dead := assignment.ProcessID{0xde, 0xad}
	txnID := app + "-" + dead.String() + "-1"
	zombie, err := testkafka.NewClient(addr, kgo.TransactionalID(txnID), kgo.TransactionTimeout(10*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	defer zombie.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := zombie.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	bogus := binary.BigEndian.AppendUint64(nil, 999)
	for p := int32(0); p < 2; p++ {
		for _, topic := range []string{app + "-counts-changelog", "out"} {
			r := &kgo.Record{Topic: topic, Partition: p, Key: []byte(vocab[0]), Value: bogus}
			if err := zombie.ProduceSync(ctx, r).FirstErr(); err != nil {
				t.Fatalf("zombie's write to %s [%d]: %v", topic, p, err)
			}
		}
	}

	var log lockedBuffer
	began := time.Now()
	second := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, app, t.TempDir()),
		streams.WithLogger(slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelInfo}))))
	took := time.Since(began)
	if !strings.Contains(log.String(), "fenced the open transaction of a process that is no longer in the group") ||
		!strings.Contains(log.String(), txnID) {
		t.Fatalf("the new instance's log does not say it fenced %s:\n%s", txnID, log.String())
	}
	if took > 30*time.Second {
		t.Errorf("the new instance took %v to restore behind the abandoned transaction", took)
	}
	t.Logf("RUNNING %v after start, behind a transaction with a 10-minute timeout", took.Round(time.Millisecond))
	words(t, addr, "in", 200, 200, vocab)
	checkCounts(t, readCounts(t, addr, "out", 400), wantCounts(400, vocab))
	closeApp(t, second)
}
