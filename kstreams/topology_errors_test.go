package kstreams_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
)

// The messages are those Kafka Streams 4.4.0 gives for the same mistakes.
func TestBuildErrorsUseKafkaMessages(t *testing.T) {
	yes := func(string, string) bool { return true }
	cases := map[string]struct {
		build func(b *kstreams.StreamsBuilder)
		msg   string
	}{
		"illegal name": {func(b *kstreams.StreamsBuilder) {
			kstreams.Stream[string, string](b, []string{"a"}).Filter(yes, "a b")
		}, `Invalid topology: Name "a b" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'`},
		"long name": {func(b *kstreams.StreamsBuilder) {
			kstreams.Stream[string, string](b, []string{"a"}).Filter(yes, kstreams.Named(strings.Repeat("x", 250)))
		}, "Invalid topology: Name is illegal, it can't be longer than 249 characters, name: " + strings.Repeat("x", 250)},
		"dot name": {func(b *kstreams.StreamsBuilder) {
			kstreams.Stream[string, string](b, []string{"a"}).Filter(yes, ".")
		}, `Invalid topology: Name cannot be "." or ".."`},
		"illegal store name": {func(b *kstreams.StreamsBuilder) {
			kstreams.Stream[string, string](b, []string{"a"}).GroupByKey().Count(kstreams.MaterializedAs[string, int64]("a b"))
		}, `Invalid topology: Name "a b" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'`},
		"duplicate processor": {func(b *kstreams.StreamsBuilder) {
			s := kstreams.Stream[string, string](b, []string{"a"})
			s.Filter(yes, "f")
			s.Filter(yes, "f")
		}, "Invalid topology: Processor f is already added."},
		"duplicate store": {func(b *kstreams.StreamsBuilder) {
			kstreams.Stream[string, string](b, []string{"a"}).GroupByKey().Count(kstreams.MaterializedAs[string, int64]("st"))
			kstreams.Stream[string, string](b, []string{"b"}).GroupByKey().Count(kstreams.MaterializedAs[string, int64]("st"))
		}, "Invalid topology: A different StateStore has already been added with the name st"},
		"stream and table": {func(b *kstreams.StreamsBuilder) {
			kstreams.Stream[string, string](b, []string{"a"})
			kstreams.Table(b, "a", kstreams.Consumed[string, string]{})
		}, "Invalid topology: Topic a has already been registered by another source."},
		"overlapping sources": {func(b *kstreams.StreamsBuilder) {
			kstreams.Stream[string, string](b, []string{"a", "b"})
			kstreams.Stream[string, string](b, []string{"b"})
		}, "Invalid topology: Two source nodes are subscribed to overlapping but not equal input topics"},
		"advance": {func(b *kstreams.StreamsBuilder) {
			kstreams.WindowedBy(kstreams.Stream[string, string](b, []string{"a"}).GroupByKey(),
				kstreams.TimeWindowsOfSizeWithNoGrace(10*time.Millisecond).AdvanceBy(11*time.Millisecond))
		}, "Window advancement interval should be more than zero and less than window duration which is 10 ms, but given advancement interval is: 11 ms"},
		"size": {func(b *kstreams.StreamsBuilder) {
			kstreams.WindowedBy(kstreams.Stream[string, string](b, []string{"a"}).GroupByKey(), kstreams.TimeWindowsOfSizeWithNoGrace(0))
		}, "Window size (sizeMs) must be larger than zero."},
		"grace": {func(b *kstreams.StreamsBuilder) {
			kstreams.WindowedBy(kstreams.Stream[string, string](b, []string{"a"}).GroupByKey(), kstreams.TimeWindowsOfSizeAndGrace(10*time.Millisecond, -time.Millisecond))
		}, "Grace period must not be negative."},
		"session grace": {func(b *kstreams.StreamsBuilder) {
			kstreams.WindowedBySession(kstreams.Stream[string, string](b, []string{"a"}).GroupByKey(),
				kstreams.SessionWindowsOfInactivityGapAndGrace(10*time.Millisecond, -time.Millisecond))
		}, "Grace period cannot be negative."},
		"session gap": {func(b *kstreams.StreamsBuilder) {
			kstreams.WindowedBySession(kstreams.Stream[string, string](b, []string{"a"}).GroupByKey(), kstreams.SessionWindowsOfInactivityGapWithNoGrace(-time.Millisecond))
		}, "Gap time cannot be negative."},
		"window retention": {func(b *kstreams.StreamsBuilder) {
			kstreams.WindowedBy(kstreams.Stream[string, string](b, []string{"a"}).GroupByKey(), kstreams.TimeWindowsOfSizeAndGrace(10*time.Millisecond, 5*time.Millisecond)).
				Count(kstreams.Materialized[string, int64]{Name: "w", Retention: 12 * time.Millisecond})
		}, "The retention period of the window store w must be no smaller than its window size plus the grace period. Got size=[10], grace=[5], retention=[12]"},
		"sliding difference": {func(b *kstreams.StreamsBuilder) {
			kstreams.WindowedBySliding(kstreams.Stream[string, string](b, []string{"a"}).GroupByKey(), kstreams.SlidingWindowsOfTimeDifferenceWithNoGrace(-time.Millisecond))
		}, "Window time difference must not be negative."},
		"sliding grace": {func(b *kstreams.StreamsBuilder) {
			kstreams.WindowedBySliding(kstreams.Stream[string, string](b, []string{"a"}).GroupByKey(),
				kstreams.SlidingWindowsOfTimeDifferenceAndGrace(10*time.Millisecond, -time.Millisecond))
		}, "Window grace period must not be negative."},
		"sliding retention": {func(b *kstreams.StreamsBuilder) {
			kstreams.WindowedBySliding(kstreams.Stream[string, string](b, []string{"a"}).GroupByKey(), kstreams.SlidingWindowsOfTimeDifferenceAndGrace(10*time.Millisecond, 5*time.Millisecond)).
				Count(kstreams.Materialized[string, int64]{Name: "w", Retention: 24 * time.Millisecond})
		}, "The retention period of the window store w must be no smaller than 2 * time difference plus the grace period. Got time difference=[10], grace=[5], retention=[24]"},
		"session retention": {func(b *kstreams.StreamsBuilder) {
			kstreams.WindowedBySession(kstreams.Stream[string, string](b, []string{"a"}).GroupByKey(), kstreams.SessionWindowsOfInactivityGapAndGrace(10*time.Millisecond, 5*time.Millisecond)).
				Count(kstreams.Materialized[string, int64]{Name: "s", Retention: 12 * time.Millisecond})
		}, "The retention period of the session store s must be no smaller than the session inactivity gap plus the grace period. Got gap=[10], grace=[5], retention=[12]"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			b := kstreams.NewStreamsBuilder()
			c.build(b)
			_, err := b.Build()
			if err == nil || err.Error() != c.msg {
				t.Fatalf("got %v\nwant %s", err, c.msg)
			}
			if strings.HasPrefix(c.msg, "Invalid topology") && !errors.Is(err, kstreams.ErrInvalidTopology) {
				t.Errorf("%v is not ErrInvalidTopology", err)
			}
		})
	}
}

func TestSameTopicsShareOneSource(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	kstreams.Stream[string, string](b, []string{"a", "b"}).To("x")
	kstreams.Stream[string, string](b, []string{"b", "a"}).To("y")
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if st := topo.Subtopologies(); len(st) != 1 || len(st[0].Sources) != 2 {
		t.Fatalf("%+v", st)
	}
}
