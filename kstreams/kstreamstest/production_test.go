package kstreamstest_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// refusingSerde refuses to serialize "bad" (keys or values alike).
type refusingSerde struct{ serde.String }

func (r refusingSerde) Serialize(topic, v string) ([]byte, error) {
	if v == "bad" {
		return nil, fmt.Errorf("%w: refusing %s", serde.ErrSerialization, v)
	}
	return r.String.Serialize(topic, v)
}

// productionHandler answers serialization errors with result, and records
// what it was asked.
type productionHandler struct {
	result  kstreams.ProductionResult
	dlq     string
	panics  bool
	asked   []kstreams.ErrorHandlerContext
	origins []kstreams.SerializationOrigin
	records []kstreams.UnserializedRecord
	configs map[string]string
}

func (h *productionHandler) Configure(c map[string]string) error { h.configs = c; return nil }

func (h *productionHandler) HandleError(kstreams.ErrorHandlerContext, kstreams.ProducerRecord, error) kstreams.ProductionResponse {
	return kstreams.ProductionResponse{Result: kstreams.ProductionFail}
}

func (h *productionHandler) HandleSerializationError(ctx kstreams.ErrorHandlerContext, r kstreams.UnserializedRecord, err error,
	origin kstreams.SerializationOrigin) kstreams.ProductionResponse {
	if h.panics {
		panic("handler bug")
	}
	h.asked, h.origins, h.records = append(h.asked, ctx), append(h.origins, origin), append(h.records, r)
	resp := kstreams.ProductionResponse{Result: h.result}
	if h.dlq != "" {
		resp.DeadLetterQueueRecords = []kstreams.ProducerRecord{kstreams.DeadLetterQueueRecord(h.dlq, ctx.SourceRawKey, ctx.SourceRawValue, ctx, err)}
	}
	return resp
}

// refusingTopology: in → mapValues(upper case, but "bad" stays) → out,
// written with a serde that refuses "bad" as key and as value.
func refusingTopology(t *testing.T) *kstreams.Topology {
	t.Helper()
	b := kstreams.NewStreamsBuilder()
	s := serde.String{}
	in := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](s, s))
	kstreams.MapValues(in, func(v string) string {
		if v == "bad" {
			return v
		}
		return strings.ToUpper(v)
	}, kstreams.Named("upper")).To("out", kstreams.ProducedWith[string, string](refusingSerde{}, refusingSerde{}))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

// TestSerializationErrorResumedDropsTheRecord: RESUME drops the record,
// counts it as dropped and goes on, as RecordCollectorTest's
// shouldNotThrowStreamsExceptionOnSerializationErrorIfContinue; the handler
// sees the input record's context (topic, partition, offset, headers,
// timestamp, raw bytes, the sink and the task), the typed record and the
// origin of the failure; its dead-letter records are sent.
func TestSerializationErrorResumedDropsTheRecord(t *testing.T) {
	h := &productionHandler{result: kstreams.ProductionResume, dlq: "dead"}
	d, err := kstreamstest.New(refusingTopology(t), kstreamstest.Config{ProductionExceptionHandler: h,
		AppConfigs: map[string]string{"application.id": "test"}})
	if err != nil {
		t.Fatal(err)
	}
	if h.configs["application.id"] != "test" {
		t.Errorf("the handler was configured with %v, want the AppConfigs", h.configs)
	}
	for i, kv := range [][2]string{{"k", "a"}, {"k", "bad"}, {"bad", "b"}, {"k", "c"}} {
		if err := d.Pipe("in", []byte(kv[0]), []byte(kv[1]), int64(10*i), kstreams.Header{Key: "h", Value: []byte(fmt.Sprint(i))}); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
	}
	var got []string
	for _, r := range d.ReadOutput("out") {
		got = append(got, string(r.Key)+"="+string(r.Value))
	}
	if strings.Join(got, ",") != "k=A,k=C" {
		t.Errorf("output %v, want k=A,k=C", got)
	}
	if len(h.asked) != 2 {
		t.Fatalf("handler asked %d times, want 2", len(h.asked))
	}
	ctx := h.asked[0]
	if ctx.Topic != "in" || ctx.Partition != 0 || ctx.Offset != 1 || ctx.Timestamp != 10 || ctx.ProcessorNodeID != "KSTREAM-SINK-0000000002" ||
		ctx.TaskID != (kstreams.TaskID{}) || string(ctx.SourceRawKey) != "k" || string(ctx.SourceRawValue) != "bad" ||
		len(ctx.Headers) != 1 || string(ctx.Headers[0].Value) != "1" {
		t.Errorf("context of the refused value: %+v", ctx)
	}
	if h.origins[0] != kstreams.SerializationValue || h.origins[1] != kstreams.SerializationKey {
		t.Errorf("origins %v, want VALUE then KEY", h.origins)
	}
	if r := h.records[1]; r.Topic != "out" || r.Key != "bad" || r.Value != "B" || r.Timestamp != 20 {
		t.Errorf("the refused key's record: %+v", r)
	}
	dead := d.ReadOutput("dead")
	if len(dead) != 2 || string(dead[0].Value) != "bad" || string(dead[1].Key) != "bad" {
		t.Fatalf("dead letters %v, want the two input records", dead)
	}
	headers := map[string]string{}
	for _, hd := range dead[0].Headers {
		headers[hd.Key] = string(hd.Value)
	}
	for k, want := range map[string]string{"h": "1", kstreams.HeaderErrorsTopic: "in", kstreams.HeaderErrorsPartition: "0",
		kstreams.HeaderErrorsOffset: "1"} {
		if headers[k] != want {
			t.Errorf("dead letter header %s = %q, want %q (all: %v)", k, headers[k], want, headers)
		}
	}
	if !strings.Contains(headers[kstreams.HeaderErrorsMessage], "refusing bad") {
		t.Errorf("dead letter message %q does not carry the error", headers[kstreams.HeaderErrorsMessage])
	}
	drops := 0
	for _, dr := range d.Dropped() {
		if dr.Reason == kstreams.DroppedProductionError && dr.Processor == "KSTREAM-SINK-0000000002" {
			drops++
		}
	}
	if drops != 2 {
		t.Errorf("%d records dropped for production errors, want 2 (all: %v)", drops, d.Dropped())
	}
}

// TestSerializationErrorFailsUnlessResumed: FAIL, and RETRY (a
// serialization error is never retriable: RecordCollectorTest's
// shouldTreatRetryAsFailForNonRetriableException), make the failure the
// record's error; the dead-letter records are sent all the same. Without a
// handler the record fails too, as under Kafka's default handler.
func TestSerializationErrorFailsUnlessResumed(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    kstreams.ProductionExceptionHandler
		dead int
	}{
		{"fail", &productionHandler{result: kstreams.ProductionFail, dlq: "dead"}, 1},
		{"retry", &productionHandler{result: kstreams.ProductionRetry}, 0},
		{"default with a dead-letter topic", &kstreams.DefaultProductionExceptionHandler{DeadLetterQueueTopic: "dead"}, 1},
		{"none", nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := kstreamstest.New(refusingTopology(t), kstreamstest.Config{ProductionExceptionHandler: tc.h})
			if err != nil {
				t.Fatal(err)
			}
			in := kstreamstest.NewInputTopic(d, "in", serde.String{}, serde.String{})
			if err := in.Pipe("k", "a", 0); err != nil {
				t.Fatal(err)
			}
			err = in.Pipe("k", "bad", 1)
			if err == nil || !errors.Is(err, serde.ErrSerialization) || !strings.Contains(err.Error(), "refusing bad") {
				t.Fatalf("error %v, want the serialization error", err)
			}
			if got := len(d.ReadOutput("dead")); got != tc.dead {
				t.Errorf("%d dead letters, want %d", got, tc.dead)
			}
			if len(d.ReadOutput("out")) != 1 {
				t.Errorf("output %v, want the first record only", d.ReadOutput("out"))
			}
		})
	}
}

// TestProductionHandlerPanicIsFatal: a handler that panics is Kafka's
// FailedProcessingException ("Fatal user code error in production error
// callback"): a *HandlerError, which no processing handler answers.
func TestProductionHandlerPanicIsFatal(t *testing.T) {
	d, err := kstreamstest.New(refusingTopology(t), kstreamstest.Config{ProductionExceptionHandler: &productionHandler{panics: true}})
	if err != nil {
		t.Fatal(err)
	}
	in := kstreamstest.NewInputTopic(d, "in", serde.String{}, serde.String{})
	err = in.Pipe("k", "bad", 1)
	var he *kstreams.HandlerError
	if !errors.As(err, &he) || he.Handler != "production" || he.Processor != "KSTREAM-SINK-0000000002" || fmt.Sprint(he.Value) != "handler bug" {
		t.Fatalf("error %v, want a *kstreams.HandlerError of the production handler at the sink", err)
	}
}
