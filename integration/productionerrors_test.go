package integration

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/examples/productionerrors"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/streams"
)

// productionErrorsInput is the input of the production-error twins: per
// partition, values the sink writes and, between them, values its serde
// refuses (with refused) and values mapped to records over
// max.request.size, 1 MiB (with big).
func productionErrorsInput(topic string, refused, big bool) []testkafka.Record {
	rows := []struct {
		p          int32
		key, value string
	}{
		{0, "k1", "a1"}, {1, "k2", "b1"},
		{0, "k1", productionerrors.Unserializable + "-1"}, {1, "k2", "big:1500000"},
		{0, "k1", "big:2000000"}, {1, "k2", productionerrors.Unserializable + "-2"},
		{0, "k1", "a2"}, {1, "k2", "b2"},
		{0, "k3", "a3"}, {1, "k4", "b3"},
	}
	var recs []testkafka.Record
	for i, r := range rows {
		if !big && strings.HasPrefix(r.value, "big:") || !refused && strings.HasPrefix(r.value, productionerrors.Unserializable) {
			continue
		}
		recs = append(recs, testkafka.Record{Topic: topic, Partition: r.p, Key: []byte(r.key), Value: []byte(r.value),
			Timestamp: time.UnixMilli(epochBase + int64(i)*1000)})
	}
	return recs
}

// productionErrorsRun is one engine's run of the productionerrors twin.
type productionErrorsRun struct {
	out, counts, dead string // topics
	app               string
}

// TestProductionErrorsMatchKafkaStreams: a production exception handler of
// the application's own, named in the .properties by its Java class (a Go
// handler is registered under it), drops the records the sink's serde
// refuses and those over max.request.size, each with a dead-letter record.
// Both engines run side by side on the same input.
//
//   - at_least_once: the same output, counts and dead-letter records (with
//     their headers), partition by partition.
//   - exactly_once_v2 with serialization errors only: the same too.
//   - exactly_once_v2 with records over max.request.size: where the engines
//     part. Kafka Streams 4.4's transactional producer keeps the failed
//     send's error, so its commit fails however the handler answered and
//     the thread stops; StoatFlow refused the record before it entered the
//     transaction and commits without it, as the handler asked: its output
//     is the at_least_once one.
//   - Kafka's default handler (at_least_once): a record over
//     max.request.size stops the thread on both engines.
func TestProductionErrorsMatchKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	props := filepath.Join(root, "examples", "productionerrors", "streams.properties")
	t.Run("describe", func(t *testing.T) {
		t.Parallel()
		args := map[string]string{"input": "in", "output": "out", "counts": "counts"}
		jvm, err := Describe(context.Background(), ReferenceOptions{App: productionerrors.Name, Args: args})
		if err != nil {
			t.Fatal(err)
		}
		topo, err := productionerrors.Build(args)
		if err != nil {
			t.Fatal(err)
		}
		if got := topo.Describe().String(); got != jvm {
			t.Errorf("describe() differs:\n--- Kafka Streams\n%s--- StoatFlow\n%s", jvm, got)
		}
	})
	for _, tc := range []struct {
		name, guarantee string
		refused, big    bool
		// jvmFails: Kafka Streams ends in ERROR; goFails: StoatFlow too.
		jvmFails, goFails bool
		set               map[string]string
	}{
		{name: "at_least_once", guarantee: "at_least_once", refused: true, big: true},
		{name: "exactly_once_v2", guarantee: "exactly_once_v2", refused: true},
		{name: "exactly_once_v2_too_large", guarantee: "exactly_once_v2", refused: true, big: true, jvmFails: true},
		{name: "default_handler", guarantee: "at_least_once", big: true, jvmFails: true, goFails: true,
			set: map[string]string{"production.exception.handler": kstreams.DefaultProductionExceptionHandlerClass}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			bootstrap := testkafka.Bootstrap(t)
			in := testkafka.Topic(t, "in")
			testkafka.CreateTopics(t, bootstrap, 2, in)
			runs := map[string]productionErrorsRun{}
			for _, engine := range []string{"jvm", "go"} {
				r := productionErrorsRun{out: in + "-out-" + engine, counts: in + "-counts-" + engine, dead: in + "-dead-" + engine,
					app: in + "-" + engine}
				testkafka.CreateTopics(t, bootstrap, 2, r.out, r.counts, r.dead)
				runs[engine] = r
			}
			input := productionErrorsInput(in, tc.refused, tc.big)
			testkafka.Produce(t, bootstrap, input...)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			set := func(r productionErrorsRun) map[string]string {
				m := map[string]string{"bootstrap.servers": bootstrap, "processing.guarantee": tc.guarantee,
					"application.id": r.app, "state.dir": t.TempDir(), "productionerrors.dead.letter.topic": r.dead,
					"commit.interval.ms": "100"}
				for k, v := range tc.set {
					m[k] = v
				}
				return m
			}
			args := func(r productionErrorsRun) map[string]string {
				return map[string]string{"input": in, "output": r.out, "counts": r.counts}
			}

			jr, gr := runs["jvm"], runs["go"]
			ref, err := StartReference(ctx, ReferenceOptions{App: productionerrors.Name, Configs: []string{props}, Set: set(jr), Args: args(jr)})
			if err != nil {
				t.Fatal(err)
			}
			defer ref.Stop(45 * time.Second)
			handlers := productionerrors.Handlers()
			cfg, err := LoadConfig([]string{props}, set(gr), compat.WithProductionHandlerClasses(handlers.Classes()...))
			if err != nil {
				t.Fatal(err)
			}
			counters := NewCounters()
			ks, err := StartStoatFlow(ctx, productionerrors.Build, args(gr), cfg, streams.WithHooks(counters), streams.WithProductionHandlers(handlers))
			if err != nil {
				t.Fatal(err)
			}
			defer ks.Close(context.Background())

			if tc.jvmFails {
				if err := ref.WaitState(ctx, "ERROR"); err != nil {
					t.Fatalf("Kafka Streams did not stop on the record over max.request.size: %v", err)
				}
				cause := linesWith(ref.Stderr(), "RecordTooLargeException", 1)
				if cause == "" {
					t.Errorf("Kafka Streams stopped, but not on the record over max.request.size:\n%s", ref.Stderr())
				}
				t.Logf("Kafka Streams 4.4 stopped: %s", cause)
			}
			if tc.goFails {
				select {
				case <-ks.Done():
				case <-ctx.Done():
					t.Fatal("StoatFlow did not stop on the record over max.request.size")
				}
				if !strings.Contains(fmt.Sprint(ks.Err()), "max.request.size") || !strings.Contains(fmt.Sprint(ks.Err()), "FAIL") {
					t.Errorf("StoatFlow's error %q does not say the handler failed on a record over max.request.size", ks.Err())
				}
				t.Logf("StoatFlow stopped: %v", ks.Err())
				return
			}

			// Every input record is counted; the rest either reaches the
			// output or the dead-letter topic.
			dead := 0
			for _, r := range input {
				if strings.HasPrefix(string(r.Value), "big:") || strings.HasPrefix(string(r.Value), productionerrors.Unserializable) {
					dead++
				}
			}
			counts, outputs := len(input), len(input)-dead
			read := func(topic string, n int) []testkafka.Record {
				t.Helper()
				recs, err := testkafka.ReadCommitted(bootstrap, topic, n, 2*time.Minute, 3*time.Second)
				if err != nil {
					t.Fatalf("%s: %v", topic, err)
				}
				return recs
			}
			goOut, goCounts, goDead := read(gr.out, outputs), read(gr.counts, counts), read(gr.dead, dead)
			if got := counters.Dropped(kstreams.DroppedProductionError); got != dead {
				t.Errorf("StoatFlow dropped %d records for production errors, want %d", got, dead)
			}
			if len(goOut) != outputs || len(goCounts) != counts || len(goDead) != dead {
				t.Errorf("StoatFlow wrote %d outputs, %d counts, %d dead letters; want %d, %d, %d", len(goOut), len(goCounts), len(goDead),
					outputs, counts, dead)
			}
			t.Logf("StoatFlow's dead letters: %s", deadLetters(goDead))
			if tc.jvmFails {
				// StoatFlow's output is what a correct at_least_once run
				// writes.
				var want, got []string
				for _, kv := range [][2]string{{"k1", "a1"}, {"k1", "a2"}, {"k3", "a3"}, {"k2", "b1"}, {"k2", "b2"}, {"k4", "b3"}} {
					want = append(want, fmt.Sprintf("%d %s=%s", kstreams.DefaultPartition([]byte(kv[0]), 2), kv[0], kv[1]))
				}
				slices.Sort(want)
				for _, r := range goOut {
					got = append(got, fmt.Sprintf("%d %s=%s", r.Partition, r.Key, r.Value))
				}
				slices.Sort(got)
				if strings.Join(got, ",") != strings.Join(want, ",") {
					t.Errorf("StoatFlow output %v, want %v", got, want)
				}
				return
			}
			jvmOut, jvmCounts, jvmDead := read(jr.out, outputs), read(jr.counts, counts), read(jr.dead, dead)
			// Two tasks write each output partition: their records
			// interleave as fetches bring them, on either engine.
			compareUnordered(t, "output", jvmOut, goOut)
			compareUnordered(t, "counts", jvmCounts, goCounts)
			const changelog = "KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog"
			compareUnordered(t, "changelog", read(jr.app+"-"+changelog, counts), read(gr.app+"-"+changelog, counts))
			jvmTopics, goTopics := internalTopics(t, bootstrap, jr.app), internalTopics(t, bootstrap, gr.app)
			if strings.Join(jvmTopics, ",") != strings.Join(goTopics, ",") || len(goTopics) != 1 {
				t.Errorf("internal topics differ:\n Kafka Streams %v\n StoatFlow     %v", jvmTopics, goTopics)
			}
			compareUnordered(t, "dead letters", jvmDead, goDead)
			if j, g := deadLetters(jvmDead), deadLetters(goDead); j != g {
				t.Errorf("dead-letter headers differ:\n Kafka Streams %s\n StoatFlow     %s", j, g)
			}
		})
	}
}

// deadLetters formats dead-letter records with their headers, sorted.
func deadLetters(recs []testkafka.Record) string {
	var out []string
	for _, r := range recs {
		s := fmt.Sprintf("%d %s=%.20s", r.Partition, r.Key, r.Value)
		for _, h := range r.Headers {
			s += fmt.Sprintf(" [%s=%s]", h.Key, h.Value)
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return strings.Join(out, "; ")
}

// linesWith returns up to n lines of log that contain what, the last ones.
func linesWith(log, what string, n int) string {
	var found []string
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, what) {
			found = append(found, l)
		}
	}
	if len(found) > n {
		found = found[len(found)-n:]
	}
	return strings.Join(found, "\n")
}
