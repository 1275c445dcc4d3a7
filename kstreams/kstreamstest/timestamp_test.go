package kstreamstest_test

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// passthrough copies in to out with String serdes; c configures the source.
func passthrough(c kstreams.Consumed[string, string]) *kstreams.StreamsBuilder {
	b := kstreams.NewStreamsBuilder()
	c.KeySerde, c.ValueSerde = serde.String{}, serde.String{}
	kstreams.Stream(b, []string{"in"}, c).To("out", kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	return b
}

func pipeTimed(t *testing.T, d *kstreamstest.Driver, recs []kv) {
	t.Helper()
	for _, r := range recs {
		if err := d.Pipe("in", []byte(r.key), r.value, r.ts); err != nil {
			t.Fatalf("Pipe(%q @%d): %v", r.key, r.ts, err)
		}
	}
}

func TestDefaultExtractorFailsOnNegativeTimestamp(t *testing.T) {
	d := build(t, passthrough(kstreams.Consumed[string, string]{}), kstreamstest.Config{})
	pipeTimed(t, d, []kv{{"a", []byte("1"), 10}})
	err := d.Pipe("in", []byte("b"), []byte("2"), -1)
	var pe *kstreams.ProcessError
	var te *kstreams.TimestampExtractionError
	if !errors.As(err, &pe) || !errors.As(err, &te) || !errors.Is(err, kstreams.ErrInvalidTimestamp) {
		t.Fatalf("Pipe(ts -1) = %v, want a ProcessError holding a TimestampExtractionError", err)
	}
	if pe.Topic != "in" || pe.Offset != 1 || te.Extractor != "kstreams.FailOnInvalidTimestamp" {
		t.Errorf("error names %s@%d and extractor %s, want in@1 and kstreams.FailOnInvalidTimestamp", pe.Topic, pe.Offset, te.Extractor)
	}
	check(t, "out", d.ReadOutput("out"), []kv{{"a", []byte("1"), 10}})
}

func TestLogAndSkipDropsAndCountsNegativeTimestamps(t *testing.T) {
	d := build(t, passthrough(kstreams.Consumed[string, string]{}), kstreamstest.Config{TimestampExtractor: kstreams.LogAndSkipOnInvalidTimestamp{}})
	pipeTimed(t, d, []kv{{"a", []byte("1"), -1}, {"b", []byte("2"), 20}, {"c", []byte("3"), -7}, {"d", []byte("4"), 5}})
	check(t, "out", d.ReadOutput("out"), []kv{{"b", []byte("2"), 20}, {"d", []byte("4"), 5}})
	dropped := d.Dropped()
	if len(dropped) != 2 || dropped[0].Reason != kstreams.DroppedNegativeTimestamp || dropped[0].Processor != "KSTREAM-SOURCE-0000000000" {
		t.Errorf("dropped = %+v, want two negative-timestamp drops at the source", dropped)
	}
	task, _ := d.Task(kstreams.TaskID{})
	if task.DroppedRecords() != 2 || task.PartitionTime("in") != 20 || task.StreamTime() != 20 {
		t.Errorf("dropped %d, partition time %d, stream time %d; want 2, 20, 20", task.DroppedRecords(), task.PartitionTime("in"), task.StreamTime())
	}
}

func TestUsePartitionTimeOnInvalidTimestamp(t *testing.T) {
	d := build(t, passthrough(kstreams.Consumed[string, string]{}), kstreamstest.Config{TimestampExtractor: kstreams.UsePartitionTimeOnInvalidTimestamp{}})
	// Partition time is the largest timestamp so far, not the last one.
	pipeTimed(t, d, []kv{{"a", []byte("1"), 100}, {"b", []byte("2"), -1}, {"c", []byte("3"), 50}, {"d", []byte("4"), -1}, {"e", []byte("5"), 300}, {"f", []byte("6"), -9}})
	check(t, "out", d.ReadOutput("out"), []kv{{"a", []byte("1"), 100}, {"b", []byte("2"), 100}, {"c", []byte("3"), 50},
		{"d", []byte("4"), 100}, {"e", []byte("5"), 300}, {"f", []byte("6"), 300}})
	if len(d.Dropped()) != 0 {
		t.Errorf("dropped = %+v", d.Dropped())
	}
}

func TestUsePartitionTimeFailsWhenPartitionTimeUnknown(t *testing.T) {
	d := build(t, passthrough(kstreams.Consumed[string, string]{}), kstreamstest.Config{TimestampExtractor: kstreams.UsePartitionTimeOnInvalidTimestamp{}})
	err := d.Pipe("in", []byte("a"), []byte("1"), -1)
	if !errors.Is(err, kstreams.ErrInvalidTimestamp) {
		t.Fatalf("Pipe(first record ts -1) = %v, want ErrInvalidTimestamp", err)
	}
}

func TestConsumedExtractorWinsOverTheDefault(t *testing.T) {
	c := kstreams.Consumed[string, string]{}.WithTimestampExtractor(kstreams.UsePartitionTimeOnInvalidTimestamp{})
	d := build(t, passthrough(c), kstreamstest.Config{TimestampExtractor: kstreams.LogAndSkipOnInvalidTimestamp{}})
	pipeTimed(t, d, []kv{{"a", []byte("1"), 7}, {"b", []byte("2"), -1}})
	check(t, "out", d.ReadOutput("out"), []kv{{"a", []byte("1"), 7}, {"b", []byte("2"), 7}})
}

func TestCustomExtractorSeesDeserializedRecord(t *testing.T) {
	// The timestamp is in the value, as a Kafka extractor reading a payload
	// field would take it.
	fromValue := kstreams.TimestampExtractorFunc(func(r kstreams.ConsumerRecord, _ int64) (int64, error) {
		return strconv.ParseInt(r.Value.(string), 10, 64)
	})
	d := build(t, passthrough(kstreams.Consumed[string, string]{TimestampExtractor: fromValue}), kstreamstest.Config{})
	pipeTimed(t, d, []kv{{"a", []byte("1234"), -1}, {"b", []byte("-5"), 99}})
	check(t, "out", d.ReadOutput("out"), []kv{{"a", []byte("1234"), 1234}})
	if dr := d.Dropped(); len(dr) != 1 || dr[0].Reason != kstreams.DroppedNegativeTimestamp {
		t.Errorf("dropped = %+v, want the record whose extracted timestamp is -5", dr)
	}
	err := d.Pipe("in", []byte("c"), []byte("not a number"), 5)
	var te *kstreams.TimestampExtractionError
	if !errors.As(err, &te) || !errors.Is(err, strconv.ErrSyntax) {
		t.Errorf("Pipe(bad payload) = %v, want the extractor's error", err)
	}
}

func TestWallclockExtractor(t *testing.T) {
	d := build(t, passthrough(kstreams.Consumed[string, string]{}), kstreamstest.Config{TimestampExtractor: kstreams.WallclockTimestampExtractor{}})
	before := time.Now().UnixMilli()
	pipeTimed(t, d, []kv{{"a", []byte("1"), -1}, {"b", []byte("2"), 5}})
	after := time.Now().UnixMilli()
	for _, r := range d.ReadOutput("out") {
		if r.Timestamp < before || r.Timestamp > after {
			t.Errorf("%s at %d, want the wall clock in [%d, %d]", r.Key, r.Timestamp, before, after)
		}
	}
}

// Kafka Streams reads repartition topics with FailOnInvalidTimestamp
// whatever default.timestamp.extractor says.
func TestRepartitionSourceFailsOnNegativeTimestamp(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	src := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	backdate := func() kstreams.Processor { return &backdater{} }
	moved := kstreams.Process[string, string](src, backdate, "backdate")
	moved.GroupByKey(kstreams.Grouped[string, string]{KeySerde: serde.String{}, ValueSerde: serde.String{}}).Count().
		ToStream().To("out", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	d := build(t, b, kstreamstest.Config{TimestampExtractor: kstreams.LogAndSkipOnInvalidTimestamp{}})
	err := d.Pipe("in", []byte("a"), []byte("x"), 10)
	var pe *kstreams.ProcessError
	if !errors.Is(err, kstreams.ErrInvalidTimestamp) || !errors.As(err, &pe) || pe.Topic != "test-KSTREAM-AGGREGATE-STATE-STORE-0000000001-repartition" {
		t.Fatalf("Pipe = %v, want the repartition source to fail on the negative timestamp", err)
	}
}

// A windowed count with UsePartitionTimeOnInvalidTimestamp: a record
// without a timestamp counts in the window of the partition time.
func TestWindowedCountWithPartitionTime(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	src := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	kstreams.WindowedBy(src.GroupByKey(), kstreams.TimeWindowsOfSizeWithNoGrace(10*time.Millisecond)).Count().ToStream().
		To("out", kstreams.ProducedWith[kstreams.Windowed[string], int64](serde.TimeWindowed[string]{Inner: serde.String{}, WindowSize: 10}, serde.Long{}))
	d := build(t, b, kstreamstest.Config{TimestampExtractor: kstreams.UsePartitionTimeOnInvalidTimestamp{}})
	pipeTimed(t, d, []kv{{"a", nil, 3}, {"a", nil, 15}, {"a", nil, -1}, {"a", nil, 4}})
	wkey := func(start int64) string { return "a" + string(long(start)) }
	// The fourth record (ts 4) is late: window [0,10) closed at stream time 15.
	check(t, "out", d.ReadOutput("out"), []kv{{wkey(0), long(1), 3}, {wkey(10), long(1), 15}, {wkey(10), long(2), 15}})
}

// backdater forwards every record with timestamp -3.
type backdater struct{ ctx kstreams.ProcessorContext }

func (p *backdater) Init(ctx kstreams.ProcessorContext) error { p.ctx = ctx; return nil }
func (p *backdater) Close() error                             { return nil }
func (p *backdater) Process(r kstreams.Record) error {
	r.Timestamp = -3
	return p.ctx.Forward(r)
}

// PeekTimestamp is what Process will give the record, without processing
// it: the runtime orders a task's partitions by it.
func TestPeekTimestampIsTheExtractedTimestamp(t *testing.T) {
	fromValue := kstreams.TimestampExtractorFunc(func(r kstreams.ConsumerRecord, _ int64) (int64, error) {
		return strconv.ParseInt(r.Value.(string), 10, 64)
	})
	for _, c := range []struct {
		name      string
		extractor kstreams.TimestampExtractor
		value     string
		ts, want  int64
	}{
		{"valid timestamp", kstreams.FailOnInvalidTimestamp{}, "1", 70, 70},
		{"partition time", kstreams.UsePartitionTimeOnInvalidTimestamp{}, "1", -1, 50},
		{"skipped", kstreams.LogAndSkipOnInvalidTimestamp{}, "1", -1, -1},
		{"payload", fromValue, "1234", 70, 1234},
		{"failing extractor", fromValue, "nan", 70, 70},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := build(t, passthrough(kstreams.Consumed[string, string]{TimestampExtractor: c.extractor}), kstreamstest.Config{})
			pipeTimed(t, d, []kv{{"a", []byte("50"), 50}})
			task, _ := d.Task(kstreams.TaskID{})
			if got := task.PeekTimestamp("in", 0, 1, []byte("b"), []byte(c.value), c.ts, nil); got != c.want {
				t.Errorf("PeekTimestamp = %d, want %d", got, c.want)
			}
			if n := len(d.ReadOutput("out")); n != 1 || task.DroppedRecords() != 0 || task.PartitionTime("in") != 50 {
				t.Errorf("peeking changed the task: %d outputs, %d dropped, partition time %d", n, task.DroppedRecords(), task.PartitionTime("in"))
			}
		})
	}
}
