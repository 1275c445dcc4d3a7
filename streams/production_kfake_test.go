package streams_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/streams"
)

// growTopology writes each input value to output, a value "big" as 2000
// bytes: over the max.request.size of 1000 the tests set.
func growTopology(t *testing.T, input, output string) *kstreams.Topology {
	t.Helper()
	b := kstreams.NewStreamsBuilder()
	in := kstreams.Stream[string, string](b, []string{input})
	kstreams.MapValues(in, func(v string) string {
		if v == "big" {
			return strings.Repeat("x", 2000)
		}
		return v
	}).To(output, kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

// skipTooLarge resumes after a record over max.request.size and records
// what it was asked; it fails on anything else.
type skipTooLarge struct {
	mu    sync.Mutex
	asked []kstreams.ErrorHandlerContext
	errs  []error
}

func (h *skipTooLarge) HandleError(ctx kstreams.ErrorHandlerContext, r kstreams.ProducerRecord, err error) kstreams.ProductionResponse {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.asked, h.errs = append(h.asked, ctx), append(h.errs, err)
	if errors.Is(err, kerr.MessageTooLarge) && !kstreams.IsRetriable(err) {
		return kstreams.ProductionResponse{Result: kstreams.ProductionResume,
			DeadLetterQueueRecords: []kstreams.ProducerRecord{{Topic: "dead", Partition: -1, Key: r.Key, Value: []byte(fmt.Sprint(len(r.Value)))}}}
	}
	return kstreams.ProductionResponse{Result: kstreams.ProductionFail}
}

func (h *skipTooLarge) HandleSerializationError(kstreams.ErrorHandlerContext, kstreams.UnserializedRecord, error,
	kstreams.SerializationOrigin) kstreams.ProductionResponse {
	return kstreams.ProductionResponse{Result: kstreams.ProductionFail}
}

// TestKfakeRecordOverMaxRequestSizeIsResumed: under both guarantees a
// handler given with WithProductionExceptionHandler drops a record over
// max.request.size, with its dead-letter record, and the records around
// it are written and committed.
func TestKfakeRecordOverMaxRequestSizeIsResumed(t *testing.T) {
	for _, guarantee := range []string{"at_least_once", "exactly_once_v2"} {
		t.Run(guarantee, func(t *testing.T) {
			_, addr := startBroker(t)
			createTopics(t, addr, 1, "in", "out", "dead")
			h := &skipTooLarge{}
			cfg := appConfig(t, addr, "resume-"+guarantee, t.TempDir(), "processing.guarantee="+guarantee, "producer.max.request.size=1000")
			startApp(t, growTopology(t, "in", "out"), cfg,
				streams.WithProductionExceptionHandler(func() kstreams.ProductionExceptionHandler { return h }))
			var recs []testkafka.Record
			for _, v := range []string{"a", "big", "b"} {
				recs = append(recs, testkafka.Record{Topic: "in", Key: []byte("k"), Value: []byte(v)})
			}
			testkafka.Produce(t, addr, recs...)
			out, err := testkafka.ReadCommitted(addr, "out", 2, 30*time.Second, 500*time.Millisecond)
			if err != nil || len(out) != 2 || string(out[0].Value) != "a" || string(out[1].Value) != "b" {
				t.Fatalf("output %v (%v), want a and b", out, err)
			}
			dead, err := testkafka.ReadCommitted(addr, "dead", 1, 30*time.Second, 500*time.Millisecond)
			if err != nil || len(dead) != 1 || string(dead[0].Value) != "2000" {
				t.Fatalf("dead letters %v (%v), want one for the 2000-byte value", dead, err)
			}
			h.mu.Lock()
			defer h.mu.Unlock()
			if len(h.asked) != 1 || h.asked[0].ProcessorNodeID != "KSTREAM-SINK-0000000002" || h.asked[0].TaskID != (kstreams.TaskID{}) ||
				!strings.Contains(h.errs[0].Error(), "max.request.size") {
				t.Errorf("handler asked %+v with %v, want once, for the sink of task 0_0", h.asked, h.errs)
			}
		})
	}
}

// TestKfakeDefaultHandlerStopsOnRecordOverMaxRequestSize: Kafka's default
// handler fails a record that can never be sent, and the thread stops with
// an error that names it, instead of aborting and processing it again
// forever.
func TestKfakeDefaultHandlerStopsOnRecordOverMaxRequestSize(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 1, "in", "out")
	cfg := appConfig(t, addr, "default-too-large", t.TempDir(), "producer.max.request.size=1000")
	hooks := newCommitHooks(t)
	ks := startApp(t, growTopology(t, "in", "out"), cfg, streams.WithHooks(hooks))
	testkafka.Produce(t, addr, testkafka.Record{Topic: "in", Key: []byte("k"), Value: []byte("big")})
	select {
	case <-ks.Done():
	case <-time.After(30 * time.Second):
		t.Fatalf("still %s 30 s after a record over max.request.size", ks.State())
	}
	err := ks.Err()
	for _, want := range []string{"max.request.size", "task 0_0", "FAIL"} {
		if !strings.Contains(fmt.Sprint(err), want) {
			t.Errorf("error %v does not name %q", err, want)
		}
	}
	if _, failed := hooks.counts(); len(failed) != 1 {
		t.Errorf("%d failed commits, want 1: %v", len(failed), failed)
	}
}
