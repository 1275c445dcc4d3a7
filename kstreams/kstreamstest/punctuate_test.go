package kstreamstest_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// ticker is the Go twin of the processor in testdata/jvmcapture/papi/Punct.java.
type ticker struct {
	ctx   kstreams.ProcessorContext
	wall  kstreams.Cancellable
	ticks int
}

func (p *ticker) Init(ctx kstreams.ProcessorContext) error {
	p.ctx = ctx
	if _, err := ctx.Schedule(10*time.Millisecond, kstreams.StreamTime, func(ts int64) error {
		return ctx.Forward(kstreams.Record{Key: "stream", Value: "tick@" + strconv.FormatInt(ts, 10), Timestamp: ts})
	}); err != nil {
		return err
	}
	var err error
	p.wall, err = ctx.Schedule(10*time.Millisecond, kstreams.WallClockTime, func(ts int64) error {
		if err := ctx.Forward(kstreams.Record{Key: "wall", Value: "tick@" + strconv.FormatInt(ts, 10), Timestamp: ts}); err != nil {
			return err
		}
		if p.ticks++; p.ticks == 2 {
			p.wall.Cancel()
		}
		return nil
	})
	return err
}

func (p *ticker) Process(r kstreams.Record) error { return p.ctx.Forward(r) }
func (p *ticker) Close() error                    { return nil }

func TestPunctuationsMatchKafkaStreams44(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	in := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	kstreams.Process[string, string](in, func() kstreams.Processor { return &ticker{} }, "").
		To("out", kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	d := build(t, b, kstreamstest.Config{ApplicationID: "app", WallClockStart: time.UnixMilli(1000)})
	pipe(t, d, "in", "k", "a", 0)
	pipe(t, d, "in", "k", "b", 5)
	pipe(t, d, "in", "k", "c", 12)
	advance := func(ms int) {
		if err := d.AdvanceWallClock(time.Duration(ms) * time.Millisecond); err != nil {
			t.Fatal(err)
		}
	}
	advance(25)
	pipe(t, d, "in", "k", "d", 35)
	pipe(t, d, "in", "k", "e", 36)
	advance(5)
	advance(10)
	advance(10)
	want, err := os.ReadFile(filepath.Join("..", "testdata", "jvmcapture", "papi", "punctuate.records.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got := transcript(d, []string{"out"}); got != string(want) {
		t.Errorf("got\n%s\nkafka streams 4.4.0\n%s", got, want)
	}
}

type badScheduler struct{}

func (badScheduler) Init(ctx kstreams.ProcessorContext) error {
	_, err := ctx.Schedule(time.Microsecond, kstreams.StreamTime, func(int64) error { return nil })
	return err
}
func (badScheduler) Process(kstreams.Record) error { return nil }
func (badScheduler) Close() error                  { return nil }

func TestScheduleRejectsSubMillisecondIntervals(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	kstreams.Process[string, string](kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})),
		func() kstreams.Processor { return badScheduler{} }, "")
	d := build(t, b, kstreamstest.Config{})
	if err := d.Pipe("in", []byte("k"), []byte("v"), 1); err == nil || !strings.Contains(err.Error(), "The minimum supported scheduling interval is 1 millisecond.") {
		t.Fatalf("got %v", err)
	}
}
