// Package productionerrors shows records a sink cannot write, answered by a
// production exception handler of the application's own:
//
//	stream(input) → mapValues (a value "big:N" becomes N bytes)
//	              → to(output, a value serde that refuses values starting with Unserializable)
//	              → groupByKey → count → to(counts)
//
// Its streams.properties names the handler by the Java class of the Kafka
// Streams twin, production.exception.handler =
// io.stoatflow.reference.ProductionErrors$SkipUnsendable; Handlers binds
// that class to the Go handler, SkipUnsendable, for a program to give the
// runtime with the topology. The handler drops the records the serde refuses and those larger than
// max.request.size, each with a dead-letter record to the topic
// productionerrors.dead.letter.topic names, and fails on any other send
// error. Arguments: input, output and counts. Keys and values are Strings,
// counts Longs.
package productionerrors

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology.
const Name = "productionerrors"

// HandlerClass is the Java class of the twin's handler, which Handlers
// binds to SkipUnsendable.
const HandlerClass = "io.stoatflow.reference.ProductionErrors$SkipUnsendable"

// Unserializable is the value prefix the output's serde refuses.
const Unserializable = "unserializable"

// Handlers binds HandlerClass to SkipUnsendable: the production exception
// handlers to give the runtime (streams.WithProductionHandlers) or the
// sidecar (sidecar.WithProductionHandlers) that runs the topology with its
// streams.properties.
func Handlers() kstreams.ProductionHandlers {
	return kstreams.ProductionHandlers{HandlerClass: func() kstreams.ProductionExceptionHandler { return &SkipUnsendable{} }}
}

// refusing is the String serde, refusing to serialize values that start
// with Unserializable.
type refusing struct{ serde.String }

func (r refusing) Serialize(topic string, v string) ([]byte, error) {
	if strings.HasPrefix(v, Unserializable) {
		return nil, fmt.Errorf("%w: refusing %s", serde.ErrSerialization, v)
	}
	return r.String.Serialize(topic, v)
}

// Build returns the topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, output, counts := "productionerrors-input", "productionerrors-output", "productionerrors-counts"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	if v := args["counts"]; v != "" {
		counts = v
	}
	b := kstreams.NewStreamsBuilder()
	s := serde.String{}
	values := kstreams.Stream(b, []string{input}, kstreams.ConsumedWith[string, string](s, s))
	kstreams.MapValues(values, func(v string) string {
		if n, ok := strings.CutPrefix(v, "big:"); ok {
			size, err := strconv.Atoi(n)
			if err == nil {
				return strings.Repeat("x", size)
			}
		}
		return v
	}).To(output, kstreams.ProducedWith[string, string](s, refusing{}))
	values.GroupByKey(kstreams.Grouped[string, string]{KeySerde: s, ValueSerde: s}).
		Count().ToStream().
		To(counts, kstreams.ProducedWith[string, int64](s, serde.Long{}))
	return b.Build()
}

// SkipUnsendable drops what cannot be serialized or is too large, with a
// dead-letter record each: the input record for a serialization error (its
// origin in header "origin"), the record's key and "too-large:SIZE" for a
// record over max.request.size. It fails on any other send error.
type SkipUnsendable struct {
	deadLetters string
}

// Configure reads productionerrors.dead.letter.topic.
func (h *SkipUnsendable) Configure(configs map[string]string) error {
	h.deadLetters = configs["productionerrors.dead.letter.topic"]
	if h.deadLetters == "" {
		return errors.New("productionerrors: productionerrors.dead.letter.topic is not set")
	}
	return nil
}

// HandleError drops a record over max.request.size.
func (h *SkipUnsendable) HandleError(_ kstreams.ErrorHandlerContext, r kstreams.ProducerRecord, err error) kstreams.ProductionResponse {
	if !errors.Is(err, kerr.MessageTooLarge) {
		return kstreams.ProductionResponse{Result: kstreams.ProductionFail}
	}
	dead := kstreams.ProducerRecord{Topic: h.deadLetters, Partition: -1, Key: r.Key, Value: []byte("too-large:" + strconv.Itoa(len(r.Value))),
		Timestamp: r.Timestamp}
	return kstreams.ProductionResponse{Result: kstreams.ProductionResume, DeadLetterQueueRecords: []kstreams.ProducerRecord{dead}}
}

// HandleSerializationError drops the record.
func (h *SkipUnsendable) HandleSerializationError(ctx kstreams.ErrorHandlerContext, _ kstreams.UnserializedRecord, _ error,
	origin kstreams.SerializationOrigin) kstreams.ProductionResponse {
	dead := kstreams.ProducerRecord{Topic: h.deadLetters, Partition: -1, Key: ctx.SourceRawKey, Value: ctx.SourceRawValue,
		Timestamp: ctx.Timestamp, Headers: []kstreams.Header{{Key: "origin", Value: []byte(origin.String())}}}
	return kstreams.ProductionResponse{Result: kstreams.ProductionResume, DeadLetterQueueRecords: []kstreams.ProducerRecord{dead}}
}
