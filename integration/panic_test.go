package integration

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/streams"
)

// panicProcessing's MapValues panics on the value "poison" and appends "!"
// to every other value.
const panicProcessing = "integration-panic-processing"

// buildPanicProcessing builds the panicProcessing topology.
func buildPanicProcessing(args map[string]string) (*kstreams.Topology, error) {
	b := kstreams.NewStreamsBuilder()
	s := kstreams.Stream(b, []string{args["input"]}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	kstreams.MapValues(s, func(v string) string {
		if v == "poison" {
			panic("cannot handle " + v)
		}
		return v + "!"
	}, kstreams.Named("bang")).To(args["output"], kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	return b.Build()
}

// TestProcessorPanicUnderProcessingHandlers: a processor's panic is the
// record's processing error, named as the processor's own (not a value-type
// error) with its task and offset: skipped and counted under
// LogAndContinueProcessingExceptionHandler, stopping the application with
// nothing committed past it under LogAndFailProcessingExceptionHandler.
func TestProcessorPanicUnderProcessingHandlers(t *testing.T) {
	t.Parallel()
	for _, handler := range []string{"LogAndContinueProcessingExceptionHandler", "LogAndFailProcessingExceptionHandler"} {
		t.Run(handler, func(t *testing.T) {
			t.Parallel()
			bootstrap := testkafka.Bootstrap(t)
			in, out := testkafka.Topic(t, "in"), testkafka.Topic(t, "out")
			testkafka.CreateTopics(t, bootstrap, 1, in, out)
			var recs []testkafka.Record
			for i, v := range []string{"a", "b", "poison", "d", "e"} {
				recs = append(recs, testkafka.Record{Topic: in, Key: []byte(fmt.Sprint("k", i)), Value: []byte(v),
					Timestamp: time.UnixMilli(epochBase + int64(i))})
			}
			testkafka.Produce(t, bootstrap, recs...)
			cfg, err := LoadConfig(nil, map[string]string{
				"application.id": in + "-app", "bootstrap.servers": bootstrap, "state.dir": t.TempDir(),
				"processing.guarantee":         "exactly_once_v2",
				"processing.exception.handler": "org.apache.kafka.streams.errors." + handler,
			})
			if err != nil {
				t.Fatal(err)
			}
			counters := NewCounters()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			ks, err := StartStoatFlow(ctx, buildPanicProcessing, map[string]string{"input": in, "output": out}, cfg, streams.WithHooks(counters))
			if err != nil {
				t.Fatal(err)
			}
			defer ks.Close(context.Background())
			if strings.HasPrefix(handler, "LogAndContinue") {
				got, err := testkafka.ReadCommitted(bootstrap, out, 4, time.Minute, 2*time.Second)
				if err != nil {
					t.Fatal(err)
				}
				var vals []string
				for _, r := range got {
					vals = append(vals, string(r.Value))
				}
				if fmt.Sprint(vals) != "[a! b! d! e!]" {
					t.Errorf("output %v, want [a! b! d! e!] (the panicking record skipped)", vals)
				}
				if n := counters.Dropped("processing-error"); n != 1 {
					t.Errorf("dropped records %d, want 1", n)
				}
				if st := ks.State(); st != streams.Running {
					t.Errorf("state %v, want RUNNING", st)
				}
				return
			}
			select {
			case <-ks.Done():
			case <-ctx.Done():
				t.Fatal("the application did not stop on the panicking record")
			}
			if ks.State() != streams.Error {
				t.Errorf("state %v, want ERROR", ks.State())
			}
			err = ks.Err()
			var pe *kstreams.PanicError
			if !errors.As(err, &pe) || pe.Processor != "bang" || pe.Value != "cannot handle poison" {
				t.Fatalf("error %v is not the processor's own panic", err)
			}
			if errors.Is(err, kstreams.ErrValueType) {
				t.Errorf("a processor's panic reported as a value-type error: %v", err)
			}
			var proc *kstreams.ProcessError
			if !errors.As(err, &proc) || proc.Offset != 2 || proc.Topic != in || proc.Task.String() != "0_0" {
				t.Errorf("error %v does not name task 0_0 and the record at offset 2", err)
			}
			if msg := err.Error(); !strings.Contains(msg, in+"-0@2") || !strings.Contains(msg, "panic_test.go") {
				t.Errorf("error %q should name the record %s-0@2 and where the panic happened", msg, in)
			}
			committed, err := testkafka.Committed(bootstrap, cfg.ApplicationID, in, 1, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if off := committed[0]; off > 2 {
				t.Errorf("committed input offset %v is past the panicking record at 2", off)
			}
		})
	}
}
