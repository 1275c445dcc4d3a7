package kstreams

import (
	"errors"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
)

// ErrorHandlerContext is what an exception handler learns of the record
// that was being processed when an error happened (Kafka's
// ErrorHandlerContext).
type ErrorHandlerContext struct {
	// Topic, Partition and Offset name the input record; "", -1 and -1 when
	// no input record caused the error (a punctuation), or when it is not
	// known (a record the producer failed to send, reported at the commit).
	Topic     string
	Partition int32
	Offset    int64
	// Headers are the input record's headers (for a send error: the
	// failed record's).
	Headers []Header
	// ProcessorNodeID names the node that wrote the record: the sink, or ""
	// when it is not known.
	ProcessorNodeID string
	TaskID          TaskID
	// Timestamp is the input record's timestamp (for a send error: the
	// failed record's).
	Timestamp int64
	// SourceRawKey and SourceRawValue are the input record's bytes as the
	// source topic held them; nil for a send error, as Kafka Streams frees
	// them once the record is serialized.
	SourceRawKey, SourceRawValue []byte
}

// ProductionResult is a production exception handler's verdict (Kafka's
// ProductionExceptionHandler.Result).
type ProductionResult int

const (
	// ProductionFail stops the stream thread; under exactly_once_v2 the
	// epoch's transaction aborts, under at_least_once nothing more is
	// committed. The uncaught-exception handler answers the thread's error.
	ProductionFail ProductionResult = iota
	// ProductionResume drops the record (counted as a dropped record) and
	// goes on: the record is lost.
	ProductionResume
	// ProductionRetry, for a retriable send error (IsRetriable), aborts the
	// epoch and processes its input again from the last commit; for any
	// other error it is taken as ProductionFail, as Kafka Streams does.
	ProductionRetry
)

// String returns Kafka's name of the result.
func (r ProductionResult) String() string {
	switch r {
	case ProductionResume:
		return "RESUME"
	case ProductionRetry:
		return "RETRY"
	}
	return "FAIL"
}

// ProductionResponse is a production exception handler's answer: its
// verdict and the dead-letter records to send (Kafka's
// ProductionExceptionHandler.Response). The dead-letter records are sent
// whatever the verdict, in the epoch of the failed record: when the epoch
// aborts (under exactly_once_v2), they are aborted with it.
type ProductionResponse struct {
	Result ProductionResult
	// DeadLetterQueueRecords are sent as given; a Partition of -1 lets the
	// default partitioner choose.
	DeadLetterQueueRecords []ProducerRecord
}

// SerializationOrigin says which half of a record failed to serialize.
type SerializationOrigin int

const (
	SerializationKey SerializationOrigin = iota
	SerializationValue
)

// String returns Kafka's name of the origin.
func (o SerializationOrigin) String() string {
	if o == SerializationValue {
		return "VALUE"
	}
	return "KEY"
}

// UnserializedRecord is a sink record whose key or value could not be
// serialized: the typed key and value the sink was given.
type UnserializedRecord struct {
	Topic string
	// Partition is -1 when the default partitioner would have chosen it.
	Partition  int32
	Key, Value any
	Timestamp  int64
	Headers    []Header
}

// ProductionExceptionHandler decides what becomes of a record that could not
// be written (Kafka's ProductionExceptionHandler, with the 4.4 methods
// handleError and handleSerializationError). A stream thread has an instance
// of its own and calls it from its own goroutine only.
//
// A handler that is also Configurable is configured with the application's
// configuration (AppConfigs) before its first use, as Kafka configures its
// handler.
type ProductionExceptionHandler interface {
	// HandleError answers a record the producer could not send: refused
	// by the client before it was sent (larger than max.request.size), or
	// by the broker. It is not asked about errors that no handler can
	// skip (authorization, fencing, an unknown topic name), which stop
	// the thread or migrate its tasks as in Kafka Streams.
	HandleError(ctx ErrorHandlerContext, record ProducerRecord, err error) ProductionResponse
	// HandleSerializationError answers a sink record whose key or value
	// serde failed. ProductionFail makes the failure a processing error of
	// the record, which processing.exception.handler then answers.
	HandleSerializationError(ctx ErrorHandlerContext, record UnserializedRecord, err error, origin SerializationOrigin) ProductionResponse
}

// Configurable is a handler that reads the application's configuration
// before its first use (Kafka's Configurable): the runtime and the test
// driver call Configure with AppConfigs.
type Configurable interface {
	Configure(configs map[string]string) error
}

// Class name of Kafka's default production exception handler, to which
// DefaultProductionExceptionHandler is bound.
const DefaultProductionExceptionHandlerClass = "org.apache.kafka.streams.errors.DefaultProductionExceptionHandler"

// DefaultProductionExceptionHandler is Kafka's DefaultProductionExceptionHandler:
// it retries a retriable send error and fails on any other error; with a
// dead-letter topic it sends the input record there as well.
type DefaultProductionExceptionHandler struct {
	// DeadLetterQueueTopic is errors.dead.letter.queue.topic.name; "" for
	// none.
	DeadLetterQueueTopic string
}

// Configure reads errors.dead.letter.queue.topic.name.
func (h *DefaultProductionExceptionHandler) Configure(configs map[string]string) error {
	if t, ok := configs["errors.dead.letter.queue.topic.name"]; ok {
		h.DeadLetterQueueTopic = t
	}
	return nil
}

// HandleError retries a retriable error and fails on any other.
func (h *DefaultProductionExceptionHandler) HandleError(ctx ErrorHandlerContext, _ ProducerRecord, err error) ProductionResponse {
	if IsRetriable(err) {
		return ProductionResponse{Result: ProductionRetry}
	}
	return ProductionResponse{Result: ProductionFail,
		DeadLetterQueueRecords: h.deadLetter(ctx.SourceRawKey, ctx.SourceRawValue, ctx, err)}
}

// HandleSerializationError fails.
func (h *DefaultProductionExceptionHandler) HandleSerializationError(ctx ErrorHandlerContext, _ UnserializedRecord, err error, _ SerializationOrigin) ProductionResponse {
	return ProductionResponse{Result: ProductionFail,
		DeadLetterQueueRecords: h.deadLetter(ctx.SourceRawKey, ctx.SourceRawValue, ctx, err)}
}

func (h *DefaultProductionExceptionHandler) deadLetter(key, value []byte, ctx ErrorHandlerContext, err error) []ProducerRecord {
	if h.DeadLetterQueueTopic == "" {
		return nil
	}
	return []ProducerRecord{DeadLetterQueueRecord(h.DeadLetterQueueTopic, key, value, ctx, err)}
}

// retriable is implemented by errors that say whether trying again may
// succeed (franz-go's *kerr.Error has a Retriable field instead; the
// runtime wraps its errors in a RetriableError).
type retriable interface{ Retriable() bool }

// RetriableError marks an error as retriable or not for IsRetriable.
type RetriableError struct {
	Err error
	// CanRetry is whether trying again may succeed.
	CanRetry bool
}

func (e *RetriableError) Error() string { return e.Err.Error() }

// Unwrap returns the error.
func (e *RetriableError) Unwrap() error { return e.Err }

// Retriable reports CanRetry.
func (e *RetriableError) Retriable() bool { return e.CanRetry }

// IsRetriable reports whether err is one that trying again may cure, as
// Kafka's RetriableException marks them.
func IsRetriable(err error) bool {
	var r retriable
	return errors.As(err, &r) && r.Retriable()
}

// The headers Kafka Streams puts on a dead-letter record (KIP-1034).
const (
	HeaderErrorsException  = "__streams.errors.exception"
	HeaderErrorsStacktrace = "__streams.errors.stacktrace"
	HeaderErrorsMessage    = "__streams.errors.message"
	HeaderErrorsTopic      = "__streams.errors.topic"
	HeaderErrorsPartition  = "__streams.errors.partition"
	HeaderErrorsOffset     = "__streams.errors.offset"
)

// DeadLetterQueueRecord builds the record Kafka Streams' built-in handlers
// send to a dead-letter topic: key and value as given (the input record's
// bytes), the context's timestamp and headers, then the error's headers.
// A Go error has no Java class or stack trace: the exception header holds
// the error's Go type, the stack trace header its message chain (a
// processor's panic: its stack).
func DeadLetterQueueRecord(topic string, key, value []byte, ctx ErrorHandlerContext, err error) ProducerRecord {
	hs := make([]Header, 0, len(ctx.Headers)+6)
	hs = append(hs, ctx.Headers...)
	trace := err.Error()
	var pe *PanicError
	if errors.As(err, &pe) && len(pe.Stack) > 0 {
		trace = string(pe.Stack)
	}
	cause := err
	for errors.Unwrap(cause) != nil {
		cause = errors.Unwrap(cause)
	}
	hs = append(hs,
		Header{Key: HeaderErrorsException, Value: []byte(fmt.Sprintf("%T", cause))},
		Header{Key: HeaderErrorsMessage, Value: []byte(err.Error())},
		Header{Key: HeaderErrorsStacktrace, Value: []byte(trace)},
		Header{Key: HeaderErrorsTopic, Value: []byte(ctx.Topic)},
		Header{Key: HeaderErrorsPartition, Value: []byte(strconv.Itoa(int(ctx.Partition)))},
		Header{Key: HeaderErrorsOffset, Value: []byte(strconv.FormatInt(ctx.Offset, 10))},
	)
	return ProducerRecord{Topic: topic, Partition: -1, PartitionKey: key, Key: key, Value: value, Timestamp: ctx.Timestamp, Headers: hs}
}

// HandlerError is an exception handler that panicked: Kafka's
// FailedProcessingException for "Fatal user code error in production error
// callback". No handler answers it; the stream thread fails.
type HandlerError struct {
	// Handler says which handler failed ("production").
	Handler string
	// Processor names the node whose record the handler was answering.
	Processor string
	Value     any
	Stack     []byte
}

func (e *HandlerError) Error() string {
	return fmt.Sprintf("kstreams: fatal user code error in %s error callback (processor %s): %v", e.Handler, e.Processor, e.Value)
}

// Unwrap returns the panic value when it is an error.
func (e *HandlerError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// CallProductionHandler calls one of h's methods through call, turning a
// panic into a *HandlerError.
func CallProductionHandler(processor string, call func() ProductionResponse) (resp ProductionResponse, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &HandlerError{Handler: "production", Processor: processor, Value: p, Stack: debug.Stack()}
		}
	}()
	return call(), nil
}

// ProductionHandlers binds the Java classes production.exception.handler
// may name, as the application's .properties file names them, to Go
// handlers: each stream thread gets its own from the class's function. A
// program gives them to the runtime (streams.WithProductionHandlers) and
// to the sidecar (sidecar.WithProductionHandlers), so that the JVM
// application's file runs unchanged; nothing binds a class by being
// imported. Kafka's default class is always bound to
// DefaultProductionExceptionHandler and cannot be rebound.
type ProductionHandlers map[string]func() ProductionExceptionHandler

// Validate reports an empty class name, a nil function, or a binding of
// Kafka's default class: mistakes in the program.
func (h ProductionHandlers) Validate() error {
	for _, class := range slices.Sorted(maps.Keys(h)) {
		switch {
		case strings.TrimSpace(class) == "":
			return errors.New("kstreams: a production exception handler needs a class name")
		case h[class] == nil:
			return fmt.Errorf("kstreams: production exception handler class %s has a nil function", class)
		case class == DefaultProductionExceptionHandlerClass:
			return fmt.Errorf("kstreams: %s is Kafka's default handler and cannot be rebound", class)
		}
	}
	return nil
}

// New returns a new handler of the class: Kafka's default, or one of h's;
// ok is false for a class h does not bind.
func (h ProductionHandlers) New(javaClass string) (handler ProductionExceptionHandler, ok bool) {
	if javaClass == DefaultProductionExceptionHandlerClass {
		return &DefaultProductionExceptionHandler{}, true
	}
	newHandler := h[javaClass]
	if newHandler == nil {
		return nil, false
	}
	return newHandler(), true
}

// Classes lists the classes a handler is bound to, Kafka's default among
// them, sorted.
func (h ProductionHandlers) Classes() []string {
	out := slices.Collect(maps.Keys(h))
	if _, ok := h[DefaultProductionExceptionHandlerClass]; !ok {
		out = append(out, DefaultProductionExceptionHandlerClass)
	}
	slices.Sort(out)
	return out
}

// DroppedProductionError is the reason OnDroppedRecord gives for a record
// the production exception handler dropped (ProductionResume).
const DroppedProductionError = "production-error"

// errorContext is the exception handlers' view of the record the task is
// processing, at node.
func (task *Task) errorContext(node string) ErrorHandlerContext {
	ctx := ErrorHandlerContext{Partition: -1, Offset: -1, Headers: task.curHeaders, ProcessorNodeID: node, TaskID: task.id,
		Timestamp: task.curTs}
	if task.hasMD {
		ctx.Topic, ctx.Partition, ctx.Offset = task.md.Topic, task.md.Partition, task.md.Offset
		ctx.SourceRawKey, ctx.SourceRawValue = task.rawKey, task.rawValue
	}
	return ctx
}

// unserializable answers a sink record whose key or value serde failed
// with the production exception handler: the record is dropped
// (ProductionResume), or the failure is the record's processing error, as
// Kafka Streams turns the handler's FAIL into the StreamsException that
// processing.exception.handler sees. The handler's dead-letter records are
// sent either way.
func (n *taskNode) unserializable(topic string, r Record, origin SerializationOrigin, err error) error {
	task := n.task
	half := "key"
	if origin == SerializationValue {
		half = "value"
	}
	if task.production == nil {
		return fmt.Errorf("%s: %s: %w", n.spec.name, half, err)
	}
	ctx := task.errorContext(n.spec.name)
	rec := UnserializedRecord{Topic: topic, Partition: -1, Key: r.Key, Value: r.Value, Timestamp: r.Timestamp, Headers: r.Headers}
	resp, herr := CallProductionHandler(n.spec.name, func() ProductionResponse {
		return task.production.HandleSerializationError(ctx, rec, err, origin)
	})
	if herr != nil {
		task.log.Error("production error callback failed after serialization error", "task", task.id.String(),
			"processor", n.spec.name, "topic", topic, "origin", origin.String(), "err", err)
		return herr
	}
	if err := task.sendDeadLetters(resp.DeadLetterQueueRecords); err != nil {
		return err
	}
	switch resp.Result {
	case ProductionResume:
		task.log.Warn("unable to serialize record, continue processing", "task", task.id.String(), "processor", n.spec.name,
			"topic", topic, "timestamp", r.Timestamp, "origin", origin.String(), "err", err)
		nodeContext{n}.RecordDropped(DroppedProductionError)
		return nil
	case ProductionRetry:
		task.log.Warn("ProductionExceptionHandler returned RETRY for a non-retriable exception; treated as FAIL",
			"task", task.id.String(), "processor", n.spec.name, "topic", topic)
	}
	return fmt.Errorf("%s: unable to serialize record (topic %s, timestamp %d): %s: %w", n.spec.name, topic, r.Timestamp, half, err)
}

// sendDeadLetters sends an exception handler's dead-letter records; one
// without a partition key is placed by its key, as the Java producer's
// default partitioner places a record.
func (task *Task) sendDeadLetters(recs []ProducerRecord) error {
	for _, dlq := range recs {
		if dlq.PartitionKey == nil {
			dlq.PartitionKey = dlq.Key
		}
		if err := task.out.Send(dlq); err != nil {
			return err
		}
	}
	return nil
}

// SinkFor names the task's sink node that writes to topic (its broker
// name); "" when none does, or more than one.
func (task *Task) SinkFor(topic string) string {
	name := ""
	for _, n := range task.order {
		if n.spec.kind == SinkNode && n.topic == topic {
			if name != "" {
				return ""
			}
			name = n.spec.name
		}
	}
	return name
}
