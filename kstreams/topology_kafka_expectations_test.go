package kstreams_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// kafkaCases rebuild topologies of Kafka Streams' own tests
// (streams/src/test/java/org/apache/kafka/streams/TopologyTest.java); the
// expected texts under testdata/kafka/ are transcribed from the assertEquals
// strings of the test named by each file, and are never rewritten by -update.
// Kafka's TimeWindows.of(1ms) and SessionWindows.with(1ms) are written with
// their non-deprecated equivalents; naming does not depend on grace.
var kafkaCases = map[string]func() *kstreams.StreamsBuilder{
	"TopologyTest.kGroupedStreamZeroArgCount": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		kstreams.Stream[string, string](b, []string{"input-topic"}).GroupByKey().Count()
		return b
	},
	"TopologyTest.kGroupedStreamNamedMaterializedCount": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		kstreams.Stream[string, string](b, []string{"input-topic"}).GroupByKey().Count(kstreams.MaterializedAs[string, int64]("count-store"))
		return b
	},
	"TopologyTest.kGroupedStreamAnonymousMaterializedCount": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		kstreams.Stream[string, string](b, []string{"input-topic"}).GroupByKey().Count(kstreams.Materialized[string, int64]{ValueSerde: serde.Long{}})
		return b
	},
	"TopologyTest.timeWindowZeroArgCount": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		kstreams.WindowedBy(kstreams.Stream[string, string](b, []string{"input-topic"}).GroupByKey(), kstreams.TimeWindowsOfSizeWithNoGrace(time.Millisecond)).Count()
		return b
	},
	"TopologyTest.timeWindowNamedMaterializedCount": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		kstreams.WindowedBy(kstreams.Stream[string, string](b, []string{"input-topic"}).GroupByKey(), kstreams.TimeWindowsOfSizeWithNoGrace(time.Millisecond)).
			Count(kstreams.MaterializedAs[string, int64]("count-store"))
		return b
	},
	"TopologyTest.timeWindowAnonymousMaterializedCount": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		kstreams.WindowedBy(kstreams.Stream[string, string](b, []string{"input-topic"}).GroupByKey(), kstreams.TimeWindowsOfSizeWithNoGrace(time.Millisecond)).
			Count(kstreams.Materialized[string, int64]{ValueSerde: serde.Long{}})
		return b
	},
	"TopologyTest.sessionWindowZeroArgCount": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		kstreams.WindowedBySession(kstreams.Stream[string, string](b, []string{"input-topic"}).GroupByKey(), kstreams.SessionWindowsOfInactivityGapWithNoGrace(time.Millisecond)).Count()
		return b
	},
	"TopologyTest.sessionWindowNamedMaterializedCount": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		kstreams.WindowedBySession(kstreams.Stream[string, string](b, []string{"input-topic"}).GroupByKey(), kstreams.SessionWindowsOfInactivityGapWithNoGrace(time.Millisecond)).
			Count(kstreams.MaterializedAs[string, int64]("count-store"))
		return b
	},
	"TopologyTest.sessionWindowAnonymousMaterializedCount": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		kstreams.WindowedBySession(kstreams.Stream[string, string](b, []string{"input-topic"}).GroupByKey(), kstreams.SessionWindowsOfInactivityGapWithNoGrace(time.Millisecond)).
			Count(kstreams.Materialized[string, int64]{ValueSerde: serde.Long{}})
		return b
	},
}

func TestDescribeMatchesKafkaTestExpectations(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "kafka", "*.txt"))
	if len(files) != len(kafkaCases) {
		t.Errorf("%d expectation files for %d cases", len(files), len(kafkaCases))
	}
	for name, build := range kafkaCases {
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", "kafka", name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(t, build()); got != string(want) {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}
