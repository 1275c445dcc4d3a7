package integration

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/examples/windowedcount"
	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// diffCase is one differential run: the same topology (registered under the
// same name in both engines) on the same input, under exactly_once_v2 with
// transactional stores and caching off on both sides.
type diffCase struct {
	app   string
	props string             // the shared .properties file
	input []testkafka.Record // Topic is filled in; passed as the "input" argument
	// inputs are further input topics by argument name (a join's "left" and
	// "right"): each is created as <input>-<name> and passed as that argument.
	// Their records are produced after input's, in the order of the names.
	inputs  map[string][]testkafka.Record
	outputs int // output records both must produce
	// moreOutputs are further output topics by suffix (a dynamic sink's),
	// created as <output><suffix> for each engine, with the records each
	// must hold; they are compared as the output is.
	moreOutputs map[string]int
	// moreUnordered compares the moreOutputs as multisets: outputs a
	// wall-clock punctuator writes, between input records where the wall
	// clock puts them.
	moreUnordered bool
	// unordered compares the outputs per partition as multisets: for an
	// output partition written by several tasks, whose interleaving no
	// engine fixes.
	unordered bool
	// changelogs maps a changelog suffix (after <app>-) to the records
	// expected; "{input}" or "{<name>}" in a suffix stands for that input
	// topic (a store Kafka Streams names after its source topic).
	changelogs map[string]int
	// unorderedChangelogs compares the changelogs as multisets per
	// partition: the changelogs of a task reading several partitions, whose
	// interleaving depends on what each fetch brought.
	unorderedChangelogs bool
	// punctuatedChangelogs are changelogs compared per partition as
	// multisets of key and value, without timestamps: the changelogs of
	// stores a punctuator writes, whose writes fall between input records
	// where the engine's processing batches put them and carry the
	// punctuation's time.
	punctuatedChangelogs map[string]int
	// noInternalTopics says the topology has none (a global table has no
	// changelog): then both engines must have created none.
	noInternalTopics bool
	// set overrides settings on both engines, over the shared ones.
	set map[string]string
}

// runDifferential runs c on Kafka Streams 4.4 and on StoatFlow and compares:
// the output records of every partition in order (key, value, timestamp),
// the changelog records, the internal topics each created with their
// partition counts and configs, and describe(). It returns StoatFlow's
// output records.
func runDifferential(t *testing.T, c diffCase) []testkafka.Record {
	bootstrap := testkafka.Bootstrap(t)
	in := testkafka.Topic(t, "in")
	outJVM, outGo := in+"-out-jvm", in+"-out-go"
	testkafka.CreateTopics(t, bootstrap, 2, in, outJVM, outGo)
	for suffix := range c.moreOutputs {
		testkafka.CreateTopics(t, bootstrap, 2, outJVM+suffix, outGo+suffix)
	}
	topics := map[string]string{"input": in}
	for i := range c.input {
		c.input[i].Topic = in
	}
	testkafka.Produce(t, bootstrap, c.input...)
	names := make([]string, 0, len(c.inputs))
	for name := range c.inputs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		topic := in + "-" + name
		testkafka.CreateTopics(t, bootstrap, 2, topic)
		topics[name] = topic
		recs := c.inputs[name]
		for i := range recs {
			recs[i].Topic = topic
		}
		testkafka.Produce(t, bootstrap, recs...)
	}
	argsFor := func(out string) map[string]string {
		m := map[string]string{"output": out}
		for k, v := range topics {
			m[k] = v
		}
		return m
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	common := map[string]string{
		"bootstrap.servers":                bootstrap,
		"processing.guarantee":             "exactly_once_v2",
		"enable.transactional.statestores": "true",
		"statestore.cache.max.bytes":       "0",
	}
	with := func(extra map[string]string) map[string]string {
		m := map[string]string{}
		for k, v := range common {
			m[k] = v
		}
		for k, v := range c.set {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}

	// The two engines run at once, each on an application id, an output
	// and internal topics of its own, and both read the whole input, all
	// of it produced before either starts.
	jvmApp, goApp := in+"-jvm", in+"-go"
	ref, err := StartReference(ctx, ReferenceOptions{
		App: c.app, Configs: []string{c.props},
		Set:  with(map[string]string{"application.id": jvmApp, "state.dir": t.TempDir()}),
		Args: argsFor(outJVM),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Stop(45 * time.Second)
	cfg, err := LoadConfig([]string{c.props}, with(map[string]string{"application.id": goApp, "state.dir": t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	ks, err := StartStoatFlow(ctx, topology(t, c.app), argsFor(outGo), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer ks.Close(context.Background())
	args := argsFor(outGo)
	var (
		jvmOut, goOut  []testkafka.Record
		jvmErr, goErr  error
		jvmDescribe    string
		jvmDescribeErr error
	)
	sideBySide(
		func() {
			if jvmErr = ref.WaitState(ctx, "RUNNING"); jvmErr == nil {
				jvmOut, jvmErr = testkafka.ReadCommitted(bootstrap, outJVM, c.outputs, 2*time.Minute, 3*time.Second)
			}
		},
		func() {
			goOut, goErr = testkafka.ReadCommitted(bootstrap, outGo, c.outputs, 2*time.Minute, 3*time.Second)
		},
		func() {
			jvmDescribe, jvmDescribeErr = Describe(ctx, ReferenceOptions{App: c.app, Args: args, Set: c.set})
		},
	)
	stopAfterOutputs(t, ref, jvmErr, goErr)

	if len(jvmOut) != c.outputs || len(goOut) != c.outputs {
		t.Errorf("records: Kafka Streams %d, StoatFlow %d, want %d", len(jvmOut), len(goOut), c.outputs)
	}
	compareOut := comparePartitions
	if c.unordered {
		compareOut = compareUnordered
	}
	compareOut(t, "output", jvmOut, goOut)

	// The further outputs and the changelogs: every read waits out its
	// linger, so all of them are read at once.
	type read struct {
		jvmTopic, goTopic string
		n                 int
		jvm, goRecs       []testkafka.Record
		jvmErr, goErr     error
		compare           func(t *testing.T, what string, jvm, goRecs []testkafka.Record)
		what              string
	}
	var reads []*read
	for suffix, n := range c.moreOutputs {
		compareMore := compareOut
		if c.moreUnordered {
			compareMore = compareUnordered
		}
		reads = append(reads, &read{jvmTopic: outJVM + suffix, goTopic: outGo + suffix, n: n,
			compare: compareMore, what: "output" + suffix})
	}
	// The changelogs must hold the same bytes: a store restored from either
	// engine's changelog holds the same state.
	for suffix, n := range c.changelogs {
		for name, topic := range topics {
			suffix = strings.ReplaceAll(suffix, "{"+name+"}", topic)
		}
		compareLog := comparePartitions
		if c.unorderedChangelogs {
			compareLog = compareUnordered
		}
		reads = append(reads, &read{jvmTopic: jvmApp + "-" + suffix, goTopic: goApp + "-" + suffix, n: n,
			compare: compareLog, what: suffix})
	}
	for suffix, n := range c.punctuatedChangelogs {
		untimed := func(recs []testkafka.Record) []testkafka.Record {
			out := slices.Clone(recs)
			for i := range out {
				out[i].Timestamp = time.Time{}
			}
			return out
		}
		reads = append(reads, &read{jvmTopic: jvmApp + "-" + suffix, goTopic: goApp + "-" + suffix, n: n,
			compare: func(t *testing.T, what string, jvm, goRecs []testkafka.Record) {
				t.Helper()
				compareUnordered(t, what, untimed(jvm), untimed(goRecs))
			}, what: suffix + " (without timestamps)"})
	}
	var fns []func()
	for _, r := range reads {
		fns = append(fns, func() { r.jvm, r.goRecs, r.jvmErr, r.goErr = readPair(bootstrap, r.jvmTopic, r.goTopic, r.n) })
	}
	sideBySide(fns...)
	for _, r := range reads {
		if r.jvmErr != nil {
			t.Fatalf("Kafka Streams %s: %v", r.what, r.jvmErr)
		}
		if r.goErr != nil {
			t.Fatalf("StoatFlow %s: %v", r.what, r.goErr)
		}
		r.compare(t, r.what, r.jvm, r.goRecs)
	}

	jvmTopics, goTopics := internalTopics(t, bootstrap, jvmApp), internalTopics(t, bootstrap, goApp)
	t.Logf("%d output records each; internal topics: %v", c.outputs, goTopics)
	if strings.Join(jvmTopics, ",") != strings.Join(goTopics, ",") || (len(goTopics) == 0) != c.noInternalTopics {
		t.Errorf("internal topics differ:\n Kafka Streams %v\n StoatFlow     %v", jvmTopics, goTopics)
	}

	if jvmDescribeErr != nil {
		t.Fatal(jvmDescribeErr)
	}
	f := topology(t, c.app)
	topo, err := f(args)
	if err != nil {
		t.Fatal(err)
	}
	if topo, err = topo.Optimize(cfg.Optimizations); err != nil {
		t.Fatal(err)
	}
	if got := topo.Describe().String(); got != jvmDescribe {
		t.Errorf("describe() differs:\n--- Kafka Streams\n%s--- StoatFlow\n%s", jvmDescribe, got)
	}
	return goOut
}

// stopAfterOutputs fails the test if either engine's output could not be
// read, and otherwise stops the Kafka Streams twin, whose output is read.
func stopAfterOutputs(t *testing.T, ref *ReferenceApp, jvmErr, goErr error) {
	t.Helper()
	if jvmErr != nil {
		t.Fatalf("Kafka Streams output: %v\n%s", jvmErr, ref.Stderr())
	}
	if err := ref.Stop(45 * time.Second); err != nil {
		t.Error(err)
	}
	if goErr != nil {
		t.Fatalf("StoatFlow output: %v", goErr)
	}
}

// sideBySide runs each of fns in a goroutine of its own and waits for all
// of them: for reads that each wait out a linger, and engines that each
// wait for their output. The functions report through what they set or
// with t.Error, never with t.Fatal, which only the test's own goroutine may
// call.
func sideBySide(fns ...func()) {
	var wg sync.WaitGroup
	for _, fn := range fns {
		wg.Go(fn)
	}
	wg.Wait()
}

// readPair reads n committed records from each engine's topic, both at
// once, as each read waits out its linger.
func readPair(bootstrap, jvmTopic, goTopic string, n int) (jvm, goRecs []testkafka.Record, jvmErr, goErr error) {
	sideBySide(
		func() { jvm, jvmErr = testkafka.ReadCommitted(bootstrap, jvmTopic, n, time.Minute, time.Second) },
		func() { goRecs, goErr = testkafka.ReadCommitted(bootstrap, goTopic, n, time.Minute, time.Second) },
	)
	return jvm, goRecs, jvmErr, goErr
}

// compareUnordered is comparePartitions over each partition's records as a
// multiset.
func compareUnordered(t *testing.T, what string, jvm, goRecs []testkafka.Record) {
	t.Helper()
	sorted := func(recs []testkafka.Record) []testkafka.Record {
		out := slices.Clone(recs)
		slices.SortStableFunc(out, func(a, b testkafka.Record) int {
			return strings.Compare(fmt.Sprintf("%d %x %x %d", a.Partition, a.Key, a.Value, a.Timestamp.UnixMilli()),
				fmt.Sprintf("%d %x %x %d", b.Partition, b.Key, b.Value, b.Timestamp.UnixMilli()))
		})
		return out
	}
	comparePartitions(t, what+" (unordered)", sorted(jvm), sorted(goRecs))
}

func comparePartitions(t *testing.T, what string, jvm, goRecs []testkafka.Record) {
	t.Helper()
	partitions := int32(2)
	for _, r := range append(slices.Clone(jvm), goRecs...) {
		partitions = max(partitions, r.Partition+1)
	}
	for p := int32(0); p < partitions; p++ {
		j, g := partitionRecords(jvm, p), partitionRecords(goRecs, p)
		if strings.Join(j, "\n") != strings.Join(g, "\n") {
			t.Errorf("%s partition %d differs:\n--- Kafka Streams\n%s\n--- StoatFlow\n%s", what, p, strings.Join(j, "\n"), strings.Join(g, "\n"))
		}
	}
}

// TestWordCountMatchesKafkaStreams: all input goes to partition 0 of a
// two-partition topic, so every repartition partition has a single writer
// and the order of the output is deterministic on both engines.
func TestWordCountMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	lines := append(append([]string{}, sampleLines...), sampleLines...)
	var recs []testkafka.Record
	for i, l := range lines {
		recs = append(recs, testkafka.Record{Partition: 0, Value: []byte(l), Timestamp: time.UnixMilli(epochBase + int64(i*1000))})
	}
	_, total := expectedUpdates(lines)
	runDifferential(t, diffCase{
		app: wordcount.Name, props: filepath.Join(root, "examples", "wordcount", "streams.properties"),
		input: recs, outputs: total,
		changelogs: map[string]int{"KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog": total},
	})
}

// TestWindowedCountMatchesKafkaStreams: keyed events across several
// windows, out of order, with records inside and beyond the grace period.
func TestWindowedCountMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	base := epochBase
	// Seconds from base per record, in arrival order.
	events := []struct {
		key string
		sec int64
	}{
		{"a", 1}, {"b", 2}, {"a", 3}, {"a", 12}, {"b", 9}, {"c", 15},
		{"a", 21}, {"b", 14}, {"a", 8}, // 8 s arrives at stream time 21 s: window [0,10) closed at 15 s, dropped
		{"c", 33}, {"a", 29}, {"b", 31}, {"a", 40}, {"c", 26}, {"b", 38},
	}
	var recs []testkafka.Record
	for _, e := range events {
		recs = append(recs, testkafka.Record{Partition: 0, Key: []byte(e.key), Value: []byte("x"),
			Timestamp: time.UnixMilli(base + e.sec*1000)})
	}
	// Count the expected outputs with Kafka's rule: a record is dropped when
	// its window's end + grace <= stream time.
	streamTime, outputs := int64(-1), 0
	for _, e := range events {
		ts := base + e.sec*1000
		streamTime = max(streamTime, ts)
		start := ts - ts%10_000
		if start+10_000+5_000 > streamTime {
			outputs++
		}
	}
	runDifferential(t, diffCase{
		app: windowedcount.Name, props: filepath.Join(root, "examples", "windowedcount", "streams.properties"),
		input: recs, outputs: outputs,
		changelogs: map[string]int{"KSTREAM-AGGREGATE-STATE-STORE-0000000001-changelog": outputs},
	})
}

// TestWindowedCountFinalMatchesKafkaStreams: the count over hopping windows
// with emitStrategy(onWindowClose) on keyed events, some out of order and
// some beyond the grace period, all on partition 0: several windows of
// several keys close at once, and both engines emit them once each, in the
// same order (by window start, then key), with the same counts and
// timestamps. The first run has the record cache off, the second on (it
// must not change what is emitted).
func TestWindowedCountFinalMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	var recs []testkafka.Record
	var ts []int64
	for i := range 120 {
		ms := epochBase + int64(i)*1300
		switch {
		case i%11 == 5:
			ms -= 9_000 // late, within the grace of some of its windows
		case i%17 == 8:
			ms -= 30_000 // beyond the grace of all its windows: dropped
		}
		key := []string{"b", "a", "c", "ab", "a"}[i%5]
		recs = append(recs, testkafka.Record{Partition: 0, Key: []byte(key), Value: []byte("x"), Timestamp: time.UnixMilli(ms)})
		ts = append(ts, ms)
	}
	// Kafka's rules: a window [start, start+10 s) takes a record while its
	// end plus 5 s of grace is after stream time, and is emitted once
	// stream time reaches that.
	streamTime, updates := int64(-1), 0
	windows := map[string]int64{}
	for i, t := range ts {
		streamTime = max(streamTime, t)
		for start := t - t%5_000 - 5_000; start <= t; start += 5_000 {
			if start >= 0 && start+10_000 > t && start+15_000 > streamTime {
				updates++
				windows[fmt.Sprintf("%s@%d", recs[i].Key, start)] = start
			}
		}
	}
	emitted := 0
	for _, start := range windows {
		if start+15_000 <= streamTime {
			emitted++
		}
	}
	for _, cache := range []string{"0", "10485760"} {
		t.Run("statestore.cache.max.bytes="+cache, func(t *testing.T) {
			t.Parallel()
			c := diffCase{
				app: windowedcount.FinalName, props: filepath.Join(root, "examples", "windowedcount", "streams.properties"),
				input: slices.Clone(recs), outputs: emitted, set: map[string]string{"statestore.cache.max.bytes": cache},
			}
			if cache == "0" {
				// With the cache on, what reaches the changelog depends on
				// when each engine commits.
				c.changelogs = map[string]int{windowedcount.FinalStore + "-changelog": updates}
			}
			runDifferential(t, c)
		})
	}
}

func partitionRecords(recs []testkafka.Record, p int32) []string {
	var out []string
	for _, r := range recs {
		if r.Partition == p {
			value := fmt.Sprintf("%x", r.Value)
			if r.Value == nil {
				value = "null" // a tombstone, not an empty value
			}
			out = append(out, fmt.Sprintf("%q=%s@%d", r.Key, value, r.Timestamp.UnixMilli()))
		}
	}
	return out
}

// internalTopics lists the topics named <app>-..., without the prefix, with
// their partition counts and cleanup policies.
func internalTopics(t *testing.T, bootstrap, app string) []string {
	t.Helper()
	admin := testkafka.Admin(t, bootstrap)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	md, err := admin.Metadata(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for name := range md.Topics {
		if strings.HasPrefix(name, app+"-") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	configs := map[string]string{}
	if len(names) > 0 {
		rs, err := admin.DescribeTopicConfigs(ctx, names...)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if r.Err != nil {
				t.Fatalf("describe configs of %s: %v", r.Name, r.Err)
			}
			byKey := map[string]kadm.Config{}
			for _, c := range r.Configs {
				byKey[c.Key] = c
			}
			var b bytes.Buffer
			for _, k := range []string{"cleanup.policy", "message.timestamp.type", "retention.ms", "segment.bytes", "min.compaction.lag.ms"} {
				if e, ok := byKey[k]; ok && e.Source == kmsg.ConfigSourceDynamicTopicConfig {
					fmt.Fprintf(&b, " %s=%s", k, e.MaybeValue())
				}
			}
			configs[r.Name] = b.String()
		}
	}
	out := make([]string, 0, len(names))
	for _, n := range names {
		out = append(out, fmt.Sprintf("%s[%d]%s", strings.TrimPrefix(n, app+"-"), len(md.Topics[n].Partitions), configs[n]))
	}
	return out
}
