package kstreamstest_test

import (
	"encoding/hex"
	"fmt"
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

// jvmScenario mirrors one scenario of testdata/jvmcapture/Sim.java, which
// ran it through Kafka Streams 4.4.0's TopologyTestDriver (in-memory stores,
// caching off, String default serdes, application id "app").
type jvmScenario struct {
	build  func() *kstreams.StreamsBuilder
	feed   func(t *testing.T, d *kstreamstest.Driver)
	topics []string
}

func pipe(t *testing.T, d *kstreamstest.Driver, topic, key, value string, ts int64) {
	t.Helper()
	if err := kstreamstest.NewInputTopic(d, topic, serde.String{}, serde.String{}).Pipe(key, value, ts); err != nil {
		t.Fatal(err)
	}
}

func stringStream(b *kstreams.StreamsBuilder, topic string) *kstreams.KStream[string, string] {
	return kstreams.Stream(b, []string{topic}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
}

var jvmScenarios = map[string]jvmScenario{
	"split": {
		build: func() *kstreams.StreamsBuilder {
			b := kstreams.NewStreamsBuilder()
			m := stringStream(b, "in").Split("s-").
				Branch(func(_, v string) bool { return strings.HasPrefix(v, "a") }).
				Branch(func(_, v string) bool { return strings.HasPrefix(v, "b") || strings.HasPrefix(v, "a") },
					kstreams.Branched[string, string]{Name: "bee", Function: func(s *kstreams.KStream[string, string]) *kstreams.KStream[string, string] {
						return kstreams.MapValues(s, func(v string) string { return v + "!" })
					}}).
				DefaultBranch()
			for name, s := range m {
				s.To("out-" + name)
			}
			return b
		},
		feed: func(t *testing.T, d *kstreamstest.Driver) {
			pipe(t, d, "in", "k", "apple", 1)
			pipe(t, d, "in", "k", "banana", 2)
			pipe(t, d, "in", "k", "cherry", 3)
			pipe(t, d, "in", "j", "avocado", 4)
		},
		topics: []string{"out-s-0", "out-s-1", "out-s-bee"},
	},
	"stateless": {
		build: func() *kstreams.StreamsBuilder {
			b := kstreams.NewStreamsBuilder()
			src := stringStream(b, "in")
			kept := src.Filter(func(_, v string) bool { return v != "" }).FilterNot(func(k, _ string) bool { return k == "skip" })
			kstreams.MapValues(kept, func(v string) int64 { return int64(len(v)) }).To("lens", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
			kstreams.Map(src, func(k, v string) (string, string) { return v, k }).To("swapped")
			kstreams.FlatMap(src, func(k, v string) []kstreams.KeyValue[string, string] {
				return []kstreams.KeyValue[string, string]{{Key: k + "1", Value: v}, {Key: k + "2", Value: v}}
			}).To("pairs")
			parts := kstreams.FlatMapValues(src, func(v string) []string { return strings.Split(v, ",") })
			kstreams.SelectKey(parts, func(_, v string) string { return v }).Peek(func(string, string) {}).To("parts")
			return b
		},
		feed: func(t *testing.T, d *kstreamstest.Driver) {
			if err := d.Pipe("in", []byte("a"), []byte("x,yz"), 7, kstreams.Header{Key: "h1", Value: []byte{1, 2}}); err != nil {
				t.Fatal(err)
			}
			pipe(t, d, "in", "skip", "q", 8)
			pipe(t, d, "in", "b", "", 9)
			if err := d.Pipe("in", nil, []byte("n"), 10); err != nil {
				t.Fatal(err)
			}
		},
		topics: []string{"lens", "swapped", "pairs", "parts"},
	},
	"headers-aggregate": {
		build: func() *kstreams.StreamsBuilder {
			b := kstreams.NewStreamsBuilder()
			g := kstreams.GroupBy(stringStream(b, "in"), func(_, v string) string { return v },
				kstreams.Grouped[string, string]{Name: "by-v", KeySerde: serde.String{}, ValueSerde: serde.String{}})
			kstreams.Aggregate(g, func() string { return "" }, func(_, v, agg string) string { return agg + strconv.Itoa(len(v)) },
				kstreams.Materialized[string, string]{KeySerde: serde.String{}, ValueSerde: serde.String{}}).ToStream().To("out")
			return b
		},
		feed: func(t *testing.T, d *kstreamstest.Driver) {
			if err := d.Pipe("in", []byte("a"), []byte("x"), 3, kstreams.Header{Key: "trace", Value: []byte("t1")}); err != nil {
				t.Fatal(err)
			}
			pipe(t, d, "in", "b", "x", 2)
		},
		topics: []string{"out", "app-by-v-repartition", "app-KSTREAM-AGGREGATE-STATE-STORE-0000000002-changelog"},
	},
	"wordcount": {
		build: wordCountBuilder,
		feed: func(t *testing.T, d *kstreamstest.Driver) {
			pipe(t, d, "streams-plaintext-input", "k1", "Hello Kafka Streams", 100)
			pipe(t, d, "streams-plaintext-input", "k2", "hello world", 50)
		},
		topics: []string{"streams-wordcount-output", "app-KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog",
			"app-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition"},
	},
	"reduce-aggregate": {
		build: func() *kstreams.StreamsBuilder {
			b := kstreams.NewStreamsBuilder()
			g := stringStream(b, "in").GroupByKey()
			g.Reduce(func(x, y string) string { return x + "+" + y }, kstreams.MaterializedAs[string, string]("reduced")).ToStream().To("reduced-out")
			kstreams.Aggregate(g, func() int64 { return 10 }, func(_ string, v string, a int64) int64 { return a + int64(len(v)) },
				kstreams.Materialized[string, int64]{Name: "lengths", ValueSerde: serde.Long{}}).
				ToStream().To("lengths-out", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
			return b
		},
		feed: func(t *testing.T, d *kstreamstest.Driver) {
			pipe(t, d, "in", "k", "a", 5)
			pipe(t, d, "in", "k", "bb", 3)
			pipe(t, d, "in", "k", "ccc", 9)
			if err := d.Pipe("in", nil, []byte("x"), 10); err != nil {
				t.Fatal(err)
			}
			if err := d.Pipe("in", []byte("k"), nil, 11); err != nil {
				t.Fatal(err)
			}
		},
		topics: []string{"reduced-out", "lengths-out", "app-reduced-changelog", "app-lengths-changelog"},
	},
	"windowed-count": {
		build: func() *kstreams.StreamsBuilder {
			b := kstreams.NewStreamsBuilder()
			kstreams.WindowedBy(stringStream(b, "in").GroupByKey(), kstreams.TimeWindowsOfSizeAndGrace(10*time.Millisecond, 5*time.Millisecond)).
				Count(kstreams.MaterializedAs[string, int64]("counts")).ToStream().
				To("out", kstreams.ProducedWith[kstreams.Windowed[string], int64](serde.TimeWindowed[string]{Inner: serde.String{}, WindowSize: 10}, serde.Long{}))
			return b
		},
		feed: func(t *testing.T, d *kstreamstest.Driver) {
			for _, ts := range []int64{1, 12, 3, 16, 4} {
				pipe(t, d, "in", "k", "v", ts)
			}
		},
		topics: []string{"out", "app-counts-changelog"},
	},
	"hopping-count": {
		build: func() *kstreams.StreamsBuilder {
			b := kstreams.NewStreamsBuilder()
			kstreams.WindowedBy(stringStream(b, "in").GroupByKey(), kstreams.TimeWindowsOfSizeWithNoGrace(10*time.Millisecond).AdvanceBy(5*time.Millisecond)).
				Count().ToStream().
				To("out", kstreams.ProducedWith[kstreams.Windowed[string], int64](serde.TimeWindowed[string]{Inner: serde.String{}, WindowSize: 10}, serde.Long{}))
			return b
		},
		feed: func(t *testing.T, d *kstreamstest.Driver) {
			for _, ts := range []int64{7, 13, 2} {
				pipe(t, d, "in", "k", "v", ts)
			}
		},
		topics: []string{"out", "app-KSTREAM-AGGREGATE-STATE-STORE-0000000001-changelog"},
	},
	"session-count": {
		build: func() *kstreams.StreamsBuilder {
			b := kstreams.NewStreamsBuilder()
			kstreams.WindowedBySession(stringStream(b, "in").GroupByKey(), kstreams.SessionWindowsOfInactivityGapAndGrace(10*time.Millisecond, 20*time.Millisecond)).
				Count(kstreams.MaterializedAs[string, int64]("sessions")).ToStream().
				To("out", kstreams.ProducedWith[kstreams.Windowed[string], int64](serde.SessionWindowed[string]{Inner: serde.String{}}, serde.Long{}))
			return b
		},
		feed: func(t *testing.T, d *kstreamstest.Driver) {
			for _, ts := range []int64{0, 30, 15, 22} {
				pipe(t, d, "in", "k", "v", ts)
			}
			pipe(t, d, "in", "other", "v", 1)
		},
		topics: []string{"out", "app-sessions-changelog"},
	},
	"table-source": {
		build: func() *kstreams.StreamsBuilder {
			b := kstreams.NewStreamsBuilder()
			kstreams.Table(b, "users", kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}),
				kstreams.MaterializedAs[string, string]("users-store")).ToStream().To("users-out")
			return b
		},
		feed: func(t *testing.T, d *kstreamstest.Driver) {
			pipe(t, d, "users", "u1", "alice", 5)
			if err := kstreamstest.NewInputTopic(d, "users", serde.String{}, serde.String{}).PipeNullValue("u1", 6); err != nil {
				t.Fatal(err)
			}
			pipe(t, d, "users", "u2", "bob", 4)
		},
		topics: []string{"users-out", "app-users-store-changelog"},
	},
	"session-reduce": {
		build: func() *kstreams.StreamsBuilder {
			b := kstreams.NewStreamsBuilder()
			g := kstreams.SelectKey(stringStream(b, "in"), func(_, v string) string { return v }).
				GroupByKey(kstreams.Grouped[string, string]{Name: "by-value"})
			kstreams.WindowedBySession(g, kstreams.SessionWindowsOfInactivityGapWithNoGrace(5*time.Millisecond)).
				Reduce(func(x, y string) string { return x + y }).ToStream().
				To("out", kstreams.ProducedWith[kstreams.Windowed[string], string](serde.SessionWindowed[string]{Inner: serde.String{}}, serde.String{}))
			return b
		},
		feed: func(t *testing.T, d *kstreamstest.Driver) {
			pipe(t, d, "in", "a", "x", 1)
			pipe(t, d, "in", "b", "x", 4)
			pipe(t, d, "in", "c", "y", 4)
			pipe(t, d, "in", "d", "x", 20)
		},
		topics: []string{"out", "app-by-value-repartition", "app-KSTREAM-REDUCE-STATE-STORE-0000000002-changelog"},
	},
}

func transcript(d *kstreamstest.Driver, topics []string) string {
	var b strings.Builder
	hx := func(v []byte) string {
		if v == nil {
			return "null"
		}
		return hex.EncodeToString(v)
	}
	for _, topic := range topics {
		for _, r := range d.Records(topic) {
			b.WriteString(topic + " key=" + hx(r.Key) + " value=" + hx(r.Value) + " ts=" + strconv.FormatInt(r.Timestamp, 10))
			for _, h := range r.Headers {
				b.WriteString(" h:" + h.Key + "=" + hx(h.Value))
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// TestRecordsMatchKafkaStreams44 requires the output, repartition and
// changelog records of each scenario to equal, byte for byte and with their
// timestamps, what Kafka Streams 4.4.0 wrote for the same input.
func TestRecordsMatchKafkaStreams44(t *testing.T) {
	for name, sc := range jvmScenarios {
		for _, caching := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/caching=%v", name, caching), func(t *testing.T) {
				testJVMScenario(t, name, sc, caching)
			})
		}
	}
}

// capture names the file holding Kafka's records: caching off
// (statestore.cache.max.bytes=0) or Kafka's default cache.
func capture(base string, caching bool) string {
	if caching {
		return base + ".cached.txt"
	}
	return base + ".records.txt"
}

func testJVMScenario(t *testing.T, name string, sc jvmScenario, caching bool) {
	{
		{
			want, err := os.ReadFile(capture(filepath.Join("..", "testdata", "jvmcapture", name), caching))
			if err != nil {
				t.Fatal(err)
			}
			d := build(t, sc.build(), kstreamstest.Config{ApplicationID: "app", Caching: caching,
				DefaultKeySerde: serde.Erase[string](serde.String{}), DefaultValueSerde: serde.Erase[string](serde.String{})})
			sc.feed(t, d)
			if got := transcript(d, sc.topics); got != string(want) {
				t.Errorf("records differ from Kafka Streams 4.4.0\n--- got ---\n%s--- kafka streams ---\n%s", got, want)
			}
		}
	}
}
