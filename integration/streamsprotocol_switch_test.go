package integration

import (
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/streams"
)

// TestStreamsProtocolSwitchIsOffline: switching an application between
// group.protocol=classic and group.protocol=streams is an offline step in
// Kafka 4.4. While the group has members under one protocol, an instance
// of the other is refused: a streams member's heartbeat gets
// GROUP_ID_NOT_FOUND ("not a streams group"), a classic member's join
// INCONSISTENT_GROUP_PROTOCOL. Kafka Streams 4.4 ends in ERROR on either;
// so does StoatFlow, its error saying the switch is offline and how to
// make it. Once every instance is stopped, the coordinator converts the
// empty group and an instance under the other protocol goes on from the
// committed offsets and the state: the word counted three times before
// the switch and once after counts 4.
func TestStreamsProtocolSwitchIsOffline(t *testing.T) {
	t.Parallel()
	bootstrap := testkafka.Bootstrap(t)
	props := wordCountProps(t)
	for _, sw := range []struct{ from, to string }{{"classic", "streams"}, {"streams", "classic"}} {
		t.Run(sw.from+" to "+sw.to, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()
			in, out := testkafka.Topic(t, "in"), testkafka.Topic(t, "out")
			testkafka.CreateTopics(t, bootstrap, 2, in, out)
			args := map[string]string{"input": in, "output": out}
			settings := func(protocol string) map[string]string {
				return map[string]string{"application.id": in + "-app", "bootstrap.servers": bootstrap, "group.protocol": protocol,
					"state.dir": t.TempDir(), "processing.guarantee": "exactly_once_v2", "main.consumer.session.timeout.ms": "6000"}
			}
			start := func(protocol string) *streams.KafkaStreams {
				t.Helper()
				return startWordCount(ctx, t, props, settings(protocol), args)
			}
			first := start(sw.from)
			waitRunning(ctx, t, first, "the "+sw.from+" instance")
			word := func() testkafka.Record {
				return testkafka.Record{Topic: in, Partition: testkafka.AnyPartition, Key: []byte("k"), Value: []byte("stoat")}
			}
			testkafka.Produce(t, bootstrap, word(), word(), word())
			if last := lastCount(t, bootstrap, out, 3); last != 3 {
				t.Fatalf("before the switch: the count of stoat is %d, want 3", last)
			}

			// Kafka Streams under the other protocol beside the running
			// instance ends in ERROR.
			ref, err := StartReference(ctx, ReferenceOptions{App: wordcount.Name, Configs: []string{props}, Set: settings(sw.to), Args: args})
			if err != nil {
				t.Fatal(err)
			}
			defer ref.Kill()
			began := time.Now()
			if err := ref.WaitState(ctx, "ERROR"); err != nil {
				t.Fatalf("Kafka Streams under group.protocol=%s beside a %s member: %v", sw.to, sw.from, err)
			}
			t.Logf("Kafka Streams under group.protocol=%s beside a member of a %s group ended in ERROR after %v", sw.to, sw.from,
				time.Since(began).Round(time.Millisecond))
			ref.Kill()

			// So does StoatFlow, saying what to do.
			began = time.Now()
			refused := start(sw.to)
			waitStopped(ctx, t, refused, "StoatFlow under group.protocol="+sw.to+" beside a "+sw.from+" member")
			if refused.State() != streams.Error || refused.Err() == nil || !strings.Contains(refused.Err().Error(), "offline step") ||
				!strings.Contains(refused.Err().Error(), "group.protocol="+sw.to) {
				t.Fatalf("StoatFlow under group.protocol=%s beside a %s member ended %s with %v, want ERROR saying the switch is an offline step",
					sw.to, sw.from, refused.State(), refused.Err())
			}
			t.Logf("StoatFlow under group.protocol=%s beside a member of a %s group ended in ERROR after %v: %v", sw.to, sw.from,
				time.Since(began).Round(time.Millisecond), refused.Err())
			if first.State() != streams.Running {
				t.Fatalf("the %s instance is %s after the refused ones, want RUNNING", sw.from, first.State())
			}

			// The offline switch: stop, then start under the other protocol.
			if err := first.CloseWith(ctx, streams.CloseOptions{LeaveGroup: true}); err != nil {
				t.Fatalf("closing the %s instance: %v", sw.from, err)
			}
			second := start(sw.to)
			testkafka.Produce(t, bootstrap, word())
			if last := lastCount(t, bootstrap, out, 4); last != 4 {
				t.Fatalf("after the switch to %s: the count of stoat is %d, want 4 (3 before the switch, from the committed offsets and the state)",
					sw.to, last)
			}
			if second.State() != streams.Running {
				t.Fatalf("the %s instance after the switch is %s, want RUNNING", sw.to, second.State())
			}
		})
	}
}

// lastCount reads the word count's output until the last count of the
// word stoat is at least want (a cache may fold updates into one), or 90 s
// passed, and returns that count.
func lastCount(t *testing.T, bootstrap, topic string, want int64) int64 {
	t.Helper()
	var last int64 = -1
	for deadline := time.Now().Add(90 * time.Second); time.Now().Before(deadline) && last < want; {
		recs, err := testkafka.ReadCommitted(bootstrap, topic, 1, 10*time.Second, time.Second)
		if err != nil && !errors.Is(err, testkafka.ErrTimeout) {
			t.Fatalf("reading %s: %v", topic, err)
		}
		for _, r := range recs {
			if string(r.Key) == "stoat" && len(r.Value) == 8 {
				last = int64(binary.BigEndian.Uint64(r.Value))
			}
		}
	}
	return last
}
