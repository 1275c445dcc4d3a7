package kstreamstest_test

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// pipeThird pipes three records to "in" and returns the error of the third:
// the processor under test panics on value "boom" only.
func pipeThird(t *testing.T, d *kstreamstest.Driver) error {
	t.Helper()
	in := kstreamstest.NewInputTopic(d, "in", serde.String{}, serde.String{})
	for i, v := range []string{"a", "b"} {
		if err := in.Pipe("k", v, int64(i)); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
	}
	return in.Pipe("k", "boom", 2)
}

// checkPanic asserts err is the processor's own panic, reported with the
// record's position, and not the typed API's value-type error.
func checkPanic(t *testing.T, err error, processor string, value any) *kstreams.PanicError {
	t.Helper()
	var pe *kstreams.PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *kstreams.PanicError", err, err)
	}
	if errors.Is(err, kstreams.ErrValueType) {
		t.Errorf("a user's panic reported as a value-type error: %v", err)
	}
	if pe.Processor != processor {
		t.Errorf("panic attributed to %q, want %q", pe.Processor, processor)
	}
	if fmt.Sprint(pe.Value) != fmt.Sprint(value) {
		t.Errorf("panic value %v, want %v", pe.Value, value)
	}
	if !strings.Contains(string(pe.Stack), "kstreamstest_test.") {
		t.Errorf("stack does not reach the test's code:\n%s", pe.Stack)
	}
	if !strings.Contains(pe.Line, "panic_test.go:") {
		t.Errorf("panic site %q (%s), want a line of panic_test.go", pe.Line, pe.Func)
	}
	var proc *kstreams.ProcessError
	if !errors.As(err, &proc) || proc.Topic != "in" || proc.Partition != 0 || proc.Offset != 2 || proc.Task.Subtopology != 0 {
		t.Fatalf("not a ProcessError naming task 0_0 and record in-0@2: %v", err)
	}
	msg := err.Error()
	for _, want := range []string{"0_0", "in-0@2", processor, "panicked", fmt.Sprint(value)} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not name %q", msg, want)
		}
	}
	return pe
}

func TestUserPanicInDSLFunctionIsReportedAsTheUsers(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	src := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	kstreams.MapValues(src, func(v string) string {
		if v == "boom" {
			panic("value was " + v)
		}
		return v
	}, kstreams.Named("upper")).To("out", kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	d := build(t, b, kstreamstest.Config{})
	checkPanic(t, pipeThird(t, d), "upper", "value was boom")
	if n := len(d.Records("out")); n != 2 {
		t.Errorf("%d output records, want the 2 before the panic", n)
	}
}

// A type assertion the user's own function gets wrong is the user's panic:
// only the typed API's conversion of a record is ErrValueType.
func TestUserTypeAssertionPanicIsNotAValueTypeError(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	src := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	kstreams.MapValues(src, func(v string) string {
		var x any = v
		if v == "boom" {
			return x.(fmt.Stringer).String()
		}
		return v
	}, kstreams.Named("assert")).To("out", kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	d := build(t, b, kstreamstest.Config{})
	pe := checkPanic(t, pipeThird(t, d), "assert", "interface conversion: string is not fmt.Stringer: missing method String")
	if _, ok := pe.Value.(*runtime.TypeAssertionError); !ok {
		t.Errorf("panic value %T, want the *runtime.TypeAssertionError itself", pe.Value)
	}
}

func TestUserNilDereferenceIsReportedAsTheUsers(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	src := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	var m map[string]*int
	src.Filter(func(_ string, v string) bool {
		if v == "boom" {
			return *m[v] > 0
		}
		return true
	}, kstreams.Named("deref")).To("out", kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	d := build(t, b, kstreamstest.Config{})
	pe := checkPanic(t, pipeThird(t, d), "deref", "runtime error: invalid memory address or nil pointer dereference")
	var re runtime.Error
	if !errors.As(pe, &re) {
		t.Errorf("a runtime error's panic should unwrap to it: %v", pe)
	}
}

var errPanicked = errors.New("processor gave up")

// panicky is a Processor API processor that panics with an error on "boom".
type panicky struct{ ctx kstreams.ProcessorContext }

func (p *panicky) Init(ctx kstreams.ProcessorContext) error { p.ctx = ctx; return nil }
func (p *panicky) Close() error                             { return nil }
func (p *panicky) Process(r kstreams.Record) error {
	if r.Value == "boom" {
		panic(fmt.Errorf("wrapped: %w", errPanicked))
	}
	return p.ctx.Forward(r)
}

// A panic in a processor downstream of another is the downstream one's, and
// panic(err) unwraps to err.
func TestProcessorAPIPanicNamesTheProcessorAndUnwraps(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	src := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	first := kstreams.MapValues(src, func(v string) string { return v }, kstreams.Named("first"))
	kstreams.Process[string, string](first, func() kstreams.Processor { return &panicky{} }, kstreams.Named("second")).
		To("out", kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	d := build(t, b, kstreamstest.Config{})
	err := pipeThird(t, d)
	checkPanic(t, err, "second", "wrapped: processor gave up")
	if !errors.Is(err, errPanicked) {
		t.Errorf("panic(err) does not unwrap to err: %v", err)
	}
}

// panickyInit panics in Init: the task fails to start with the processor
// named, instead of the goroutine dying.
type panickyInit struct{}

func (panickyInit) Init(kstreams.ProcessorContext) error { panic("no config") }
func (panickyInit) Process(kstreams.Record) error        { return nil }
func (panickyInit) Close() error                         { return nil }

func TestProcessorInitPanicFailsTheTask(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	src := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	kstreams.Process[string, string](src, func() kstreams.Processor { return panickyInit{} }, kstreams.Named("init"))
	d := build(t, b, kstreamstest.Config{})
	err := d.Pipe("in", []byte("k"), []byte("v"), 1)
	var pe *kstreams.PanicError
	if !errors.As(err, &pe) || pe.Processor != "init" || pe.Value != "no config" {
		t.Fatalf("got %v, want the init panic of processor init", err)
	}
}

// boomPunctuator schedules a stream-time punctuation that panics.
type boomPunctuator struct{}

func (boomPunctuator) Init(ctx kstreams.ProcessorContext) error {
	_, err := ctx.Schedule(10*time.Millisecond, kstreams.StreamTime, func(ts int64) error {
		if ts >= 20 {
			panic(fmt.Sprintf("tick at %d", ts))
		}
		return nil
	})
	return err
}
func (boomPunctuator) Process(kstreams.Record) error { return nil }
func (boomPunctuator) Close() error                  { return nil }

func TestPunctuatorPanicIsReportedAsTheProcessors(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	src := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	kstreams.Process[string, string](src, func() kstreams.Processor { return boomPunctuator{} }, kstreams.Named("punct"))
	d := build(t, b, kstreamstest.Config{})
	in := kstreamstest.NewInputTopic(d, "in", serde.String{}, serde.String{})
	if err := in.Pipe("k", "v", 10); err != nil {
		t.Fatal(err)
	}
	err := in.Pipe("k", "v", 25)
	var pe *kstreams.PanicError
	if !errors.As(err, &pe) || pe.Processor != "punct" || pe.Value != "tick at 25" {
		t.Fatalf("got %v, want the punctuator's panic", err)
	}
	var proc *kstreams.ProcessError
	if !errors.As(err, &proc) || proc.Offset != -1 || proc.Node != "punct" {
		t.Fatalf("a punctuation's error names its node and no offset: %v", err)
	}
}

// The typed API's own conversion failing stays ErrValueType, not a panic of
// the user's function (which never ran).
func TestValueTypeMismatchIsNotAUserPanic(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	src := kstreams.Stream[string, int64](b, []string{"in"})
	ran := false
	kstreams.MapValues(src, func(v int64) int64 { ran = true; return v }).To("out")
	d := build(t, b, kstreamstest.Config{DefaultKeySerde: serde.Erase[string](serde.String{}), DefaultValueSerde: serde.Erase[string](serde.String{})})
	err := d.Pipe("in", []byte("k"), []byte("v"), 1)
	if !errors.Is(err, kstreams.ErrValueType) {
		t.Fatalf("got %v, want ErrValueType", err)
	}
	var pe *kstreams.PanicError
	if errors.As(err, &pe) {
		t.Errorf("the typed API's conversion reported as a user panic: %v", err)
	}
	if ran {
		t.Error("the user's function ran on a value of the wrong type")
	}
}
