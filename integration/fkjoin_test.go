package integration

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/stoatflow/stoatflow/examples/fkjoin"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// fkEvent is one record of the foreign-key join test: a left row ("fk|x")
// or a right row, nil value for a deletion.
type fkEvent struct {
	side  string // "left" or "right"
	key   string
	value *string
}

// fkPhases are the input of TestFKJoinMatchesKafkaStreams, one record per
// phase: a foreign-key join's results travel through two topics between
// the tasks of the left and the right table, so two records in flight at
// once could be answered in either order on either engine. Each phase
// waits until the application is idle.
var fkPhases = []fkEvent{
	{"right", "p1", str("P1")}, {"right", "p2", str("P2")}, {"right", "p3", str("P3")},
	{"left", "o1", str("p1|a")}, {"left", "o2", str("p2|b")}, {"left", "o3", str("p3|c")}, {"left", "o4", str("p1|d")},
	{"left", "o1", str("p2|a2")},  // the foreign key changes to another existing row
	{"right", "p2", str("P2x")},   // a right row updated: o1 and o2
	{"right", "p1", nil},          // a right row deleted: o4
	{"left", "o2", str("p9|b2")},  // to a foreign key with no row
	{"left", "o3", str("c3")},     // to a null foreign key
	{"left", "o4", nil},           // a left row deleted
	{"right", "p9", str("P9")},    // the missing row arrives: o2
	{"right", "p3", nil},          // a row no one refers to any more
	{"left", "o5", str("p2|e")},   // a new left row
	{"left", "o5", str("p2|e2")},  // its value changes, the foreign key does not
	{"left", "o3", str("p9|c4")},  // from a null foreign key to one
	{"right", "p2", nil},          // o1 and o5 lose their row
	{"left", "o1", nil},           // deleted after its row
	{"left", "o6", nil},           // a left row that never existed
	{"right", "p1", str("P1new")}, // a row again, no one refers to it
}

// TestFKJoinMatchesKafkaStreams runs examples/fkjoin (an unnamed inner
// foreign-key join materialized as fk-inner, and a left join named fk-left,
// each to its own output topic)
// on Kafka Streams 4.4 and on StoatFlow over fkPhases, and compares the
// output of each partition, the subscription-registration and
// subscription-response topics of both joins, both subscription stores'
// changelogs, the changelogs of both tables and of the inner result, the
// internal topics with their configs, and describe().
func TestFKJoinMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	props := filepath.Join(root, "examples", "fkjoin", "streams.properties")
	bootstrap := testkafka.Bootstrap(t)
	base := testkafka.Topic(t, "fk")
	topics := map[string]string{"left": base + "-left", "right": base + "-right"}
	outJVM, outGo := base+"-out-jvm", base+"-out-go"
	testkafka.CreateTopics(t, bootstrap, 2, outJVM, outGo, outJVM+"-left", outGo+"-left")
	argsFor := func(out string) map[string]string {
		return map[string]string{"left": topics["left"], "right": topics["right"], "output": out, "left-output": out + "-left"}
	}
	common := map[string]string{
		"bootstrap.servers":                bootstrap,
		"processing.guarantee":             "exactly_once_v2",
		"enable.transactional.statestores": "true",
		"statestore.cache.max.bytes":       "0",
		// Keep the subscription topics' records for the comparison: both
		// engines would otherwise delete what they have consumed.
		"repartition.purge.interval.ms": "3600000",
	}
	with := func(app string) map[string]string {
		m := map[string]string{"application.id": app, "state.dir": t.TempDir()}
		for k, v := range common {
			m[k] = v
		}
		return m
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()

	// Each engine reads the phases from its own copy of the input topics
	// and waits for its own application to be idle after each, so the two
	// run side by side, each fed as if it ran alone.
	runPhases := func(admin *kadm.Client, engine, app, out string) error {
		for i, e := range fkPhases {
			r := testkafka.Record{Topic: topics[e.side] + "-" + engine, Partition: testkafka.AnyPartition, Key: []byte(e.key),
				Timestamp: time.UnixMilli(epochBase + int64(i+1)*1000)}
			if e.value != nil {
				r.Value = []byte(*e.value)
			}
			if err := testkafka.ProduceErr(bootstrap, r); err != nil {
				return err
			}
			if err := waitIdle(ctx, admin, app, out, out+"-left"); err != nil {
				return fmt.Errorf("%s, phase %d (%s %s): %w", engine, i, e.side, e.key, err)
			}
		}
		return nil
	}
	for _, engine := range []string{"jvm", "go"} {
		testkafka.CreateTopics(t, bootstrap, 2, topics["left"]+"-"+engine, topics["right"]+"-"+engine)
	}
	engineArgs := func(engine, out string) map[string]string {
		return map[string]string{"left": topics["left"] + "-" + engine, "right": topics["right"] + "-" + engine,
			"output": out, "left-output": out + "-left"}
	}

	jvmApp, goApp := base+"-jvm", base+"-go"
	ref, err := StartReference(ctx, ReferenceOptions{App: fkjoin.Name, Configs: []string{props}, Set: with(jvmApp), Args: engineArgs("jvm", outJVM)})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Stop(45 * time.Second)
	cfg, err := LoadConfig([]string{props}, with(goApp))
	if err != nil {
		t.Fatal(err)
	}
	ks, err := StartStoatFlow(ctx, fkjoin.Build, engineArgs("go", outGo), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer ks.Close(context.Background())
	if err := ref.WaitState(ctx, "RUNNING"); err != nil {
		t.Fatal(err)
	}
	jvmAdmin, goAdmin := testkafka.Admin(t, bootstrap), testkafka.Admin(t, bootstrap)
	var jvmErr, goErr error
	sideBySide(
		func() { jvmErr = runPhases(jvmAdmin, "jvm", jvmApp, outJVM) },
		func() { goErr = runPhases(goAdmin, "go", goApp, outGo) },
	)
	if jvmErr != nil || goErr != nil {
		t.Fatalf("Kafka Streams: %v; StoatFlow: %v", jvmErr, goErr)
	}
	if err := ref.Stop(45 * time.Second); err != nil {
		t.Error(err)
	}
	// Every topic is read from both engines, from Kafka Streams first, as
	// its record count is what StoatFlow's read waits for; as every read
	// waits out its linger, the topics are read side by side. The checks
	// run in the goroutines and report with t.Error.
	var checks []func()
	// The two joins write to their own topics: their results for one update
	// come back through different topics, in no fixed order.
	for _, suffix := range []string{"", "-left"} {
		checks = append(checks, func() {
			jvmOut, err := testkafka.ReadCommitted(bootstrap, outJVM+suffix, 0, time.Minute, 3*time.Second)
			if err != nil {
				t.Error(err)
				return
			}
			goOut, err := testkafka.ReadCommitted(bootstrap, outGo+suffix, len(jvmOut), time.Minute, 3*time.Second)
			if err != nil {
				t.Errorf("StoatFlow output: %v", err)
				return
			}
			t.Logf("output%s records: Kafka Streams %d, StoatFlow %d", suffix, len(jvmOut), len(goOut))
			if len(jvmOut) < len(fkPhases)/2 {
				t.Errorf("Kafka Streams wrote only %d records to output%s: the test no longer exercises the join", len(jvmOut), suffix)
			}
			if len(jvmOut) != len(goOut) {
				t.Errorf("output%s: Kafka Streams wrote %d records, StoatFlow %d", suffix, len(jvmOut), len(goOut))
			}
			comparePartitions(t, "output"+suffix, jvmOut, goOut)
		})
	}

	// The internal topics and changelogs, record by record. A left join's
	// subscription for a null foreign key has a null key, which both
	// engines' producers put on a partition of their choosing: those are
	// compared as a set.
	logs := []string{
		"KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic",
		"KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000014-topic",
		"KTABLE-FK-JOIN-SUBSCRIPTION-STATE-STORE-0000000010-changelog",
		fkjoin.LeftName + "-subscription-registration-topic",
		fkjoin.LeftName + "-subscription-response-topic",
		fkjoin.LeftName + "-subscription-store-changelog",
		fkjoin.InnerStore + "-changelog",
	}
	for _, suffix := range logs {
		checks = append(checks, func() {
			jvmLog, err := testkafka.ReadCommitted(bootstrap, jvmApp+"-"+suffix, 0, time.Minute, 3*time.Second)
			if err != nil {
				t.Error(err)
				return
			}
			goLog, err := testkafka.ReadCommitted(bootstrap, goApp+"-"+suffix, len(jvmLog), time.Minute, 2*time.Second)
			if err != nil {
				t.Error(err)
				return
			}
			if len(jvmLog) == 0 {
				t.Errorf("%s: Kafka Streams wrote nothing", suffix)
			}
			t.Logf("%s: Kafka Streams %d records, StoatFlow %d", suffix, len(jvmLog), len(goLog))
			compareKeyedPartitions(t, suffix, jvmLog, goLog)
		})
	}
	for _, side := range []string{"left", "right"} {
		checks = append(checks, func() {
			store := map[string]string{"left": "-STATE-STORE-0000000000-changelog", "right": "-STATE-STORE-0000000003-changelog"}[side]
			jvmLog, err := testkafka.ReadCommitted(bootstrap, jvmApp+"-"+topics[side]+"-jvm"+store, 0, time.Minute, 2*time.Second)
			if err != nil {
				t.Error(err)
				return
			}
			goLog, err := testkafka.ReadCommitted(bootstrap, goApp+"-"+topics[side]+"-go"+store, len(jvmLog), time.Minute, 2*time.Second)
			if err != nil {
				t.Error(err)
				return
			}
			comparePartitions(t, side+" table changelog", jvmLog, goLog)
		})
	}
	sideBySide(checks...)
	if t.Failed() {
		t.FailNow()
	}

	// Internal topics, by their names after the application id (the input
	// topics differ by engine and name the tables' changelogs).
	strip := func(names []string, engine string) []string {
		var out []string
		for _, n := range names {
			out = append(out, strings.ReplaceAll(n, "-"+engine, "-ENGINE"))
		}
		return out
	}
	jvmTopics := strip(internalTopics(t, bootstrap, jvmApp), "jvm")
	goTopics := strip(internalTopics(t, bootstrap, goApp), "go")
	if strings.Join(jvmTopics, "\n") != strings.Join(goTopics, "\n") {
		t.Errorf("internal topics differ:\n Kafka Streams %v\n StoatFlow     %v", jvmTopics, goTopics)
	}
	t.Logf("internal topics: %v", goTopics)

	args := argsFor(outGo)
	jvmDescribe, err := Describe(ctx, ReferenceOptions{App: fkjoin.Name, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	f := fkjoin.Build
	topo, err := f(args)
	if err != nil {
		t.Fatal(err)
	}
	if got := topo.Describe().String(); got != jvmDescribe {
		t.Errorf("describe() differs:\n--- Kafka Streams\n%s--- StoatFlow\n%s", jvmDescribe, got)
	}
}

// waitIdle waits until application app has stopped writing: the end
// offsets of its output topics and of its internal topics have not moved
// for 2 s.
func waitIdle(ctx context.Context, admin *kadm.Client, app string, outputs ...string) error {
	last, stable := "", 0
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
		md, err := admin.Metadata(ctx)
		if err != nil {
			return err
		}
		names := append([]string{}, outputs...)
		for name := range md.Topics {
			if strings.HasPrefix(name, app+"-") {
				names = append(names, name)
			}
		}
		offs, err := testkafka.ListOffsets(ctx, admin, false, names...)
		if err != nil {
			return err
		}
		var b strings.Builder
		sort.Strings(names)
		for _, n := range names {
			ps := offs[n]
			keys := make([]int, 0, len(ps))
			for p := range ps {
				keys = append(keys, int(p))
			}
			sort.Ints(keys)
			for _, p := range keys {
				fmt.Fprintf(&b, "%s/%d=%d ", n, p, ps[int32(p)])
			}
		}
		if s := b.String(); s == last {
			stable++
		} else {
			last, stable = s, 0
		}
		if stable >= 8 {
			return nil
		}
	}
}

// compareKeyedPartitions is comparePartitions for a topic that may hold
// records with null keys: keyed records are compared per partition, the
// others as a sorted list over all partitions.
func compareKeyedPartitions(t *testing.T, what string, jvm, goRecs []testkafka.Record) {
	t.Helper()
	split := func(recs []testkafka.Record) (keyed []testkafka.Record, nulls []string) {
		for _, r := range recs {
			if r.Key == nil {
				nulls = append(nulls, fmt.Sprintf("%x@%d", r.Value, r.Timestamp.UnixMilli()))
			} else {
				keyed = append(keyed, r)
			}
		}
		sort.Strings(nulls)
		return keyed, nulls
	}
	jk, jn := split(jvm)
	gk, gn := split(goRecs)
	comparePartitions(t, what, jk, gk)
	if strings.Join(jn, "\n") != strings.Join(gn, "\n") {
		t.Errorf("%s: null-key records differ:\n--- Kafka Streams\n%s\n--- StoatFlow\n%s", what, strings.Join(jn, "\n"), strings.Join(gn, "\n"))
	}
	if len(jvm) != len(goRecs) {
		t.Errorf("%s: Kafka Streams wrote %d records, StoatFlow %d", what, len(jvm), len(goRecs))
	}
}
