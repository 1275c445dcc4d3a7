//go:build unix

package metrics

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// cpuTime is the process's CPU time so far (user and system): on a
// machine shared with other work it moves far less than the wall clock.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkWordCountRecording is the word count's per-record path with the
// registry's hooks called as a stream thread calls them: each line goes
// through the topology (split, repartition, count, sink: two processed
// records per one-word line), and after every round of lines the thread
// reports its poll, each task's processing (OnProcess, whose task-level
// metrics are DEBUG) and the store's and thread's uncommitted bytes. One op
// is one input line; level=DEBUG over level=INFO is what recording Kafka
// Streams' DEBUG metrics costs per record. cpu-ns/op is the process's CPU
// time per line.
func BenchmarkWordCountRecording(b *testing.B) {
	for _, round := range []int{1, 64} {
		for _, level := range []string{"INFO", "DEBUG"} {
			b.Run(fmt.Sprintf("level=%s/round=%d", level, round), func(b *testing.B) {
				r := New(Options{Config: config(b, "metrics.recording.level="+level), StoreSubtopology: map[string]int{"counts": 1}})
				sb := kstreams.NewStreamsBuilder()
				src := kstreams.Stream(sb, []string{"lines"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
				ws := kstreams.FlatMapValues(src, func(v string) []string { return strings.Fields(v) })
				kstreams.GroupBy(ws, func(_, w string) string { return w }).Count(kstreams.MaterializedAs[string, int64]("counts")).
					ToStream().To("counts-out", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
				topo, err := sb.Build()
				if err != nil {
					b.Fatal(err)
				}
				d, err := kstreamstest.New(topo, kstreamstest.Config{DefaultKeySerde: serde.Erase[string](serde.String{}),
					DefaultValueSerde: serde.Erase[string](serde.String{})})
				if err != nil {
					b.Fatal(err)
				}
				defer d.Close()
				lines := make([][]byte, 64)
				for i := range lines {
					lines[i] = fmt.Appendf(nil, "w%d", (i*7)%500)
				}
				split, count := kstreams.TaskID{Subtopology: 0}, kstreams.TaskID{Subtopology: 1}
				r.OnTaskOpened(1, split)
				r.OnTaskOpened(1, count)
				b.ReportAllocs()
				b.ResetTimer()
				cpu := cpuTime(b)
				began := time.Now()
				for i := 0; i < b.N; i++ {
					if err := d.Pipe("lines", nil, lines[i%len(lines)], int64(i)); err != nil {
						b.Fatal(err)
					}
					if (i+1)%round == 0 {
						took := time.Since(began)
						r.OnPoll(1, round, took)
						r.OnProcess(1, split, round, took)
						r.OnProcess(1, count, round, took)
						r.OnStoreUncommittedBytes(count, "counts", int64(i))
						r.OnThreadUncommittedBytes(1, int64(i))
						began = time.Now()
					}
					if i%1024 == 0 {
						d.ReadOutput("counts-out")
					}
				}
				b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// BenchmarkOnProcess is the per-round hook alone: at INFO it records the
// thread's metrics, at DEBUG the task's too.
func BenchmarkOnProcess(b *testing.B) {
	for _, level := range []string{"INFO", "DEBUG"} {
		b.Run("level="+level, func(b *testing.B) {
			r := New(Options{Config: config(b, "metrics.recording.level="+level)})
			task := kstreams.TaskID{Subtopology: 0, Partition: 1}
			r.OnTaskOpened(1, task)
			b.ReportAllocs()
			for b.Loop() {
				r.OnProcess(1, task, 1, time.Microsecond)
			}
		})
	}
}
