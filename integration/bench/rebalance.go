package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// The rebalance workload: a third instance joins a loaded two-instance word
// count under exactly_once_v2 while input flows at a steady rate, and the
// harness measures what the join costs the output.

const (
	// rebalanceQuiet is how long the group must stay stable, with every
	// member holding partitions and no new generation, to count as
	// settled: a follow-up rebalance (cooperative revocation, tasks held
	// back) starts well within it.
	rebalanceQuiet = 3 * time.Second
	// rebalanceAfter is how long past the group's stability the output is
	// still watched for gaps: tasks that moved may restore, or wait for
	// their first commit, after the group is stable.
	rebalanceAfter = 5 * time.Second
	// rebalanceWait is the longest the harness waits past the group's
	// stability for every output partition to receive a record again.
	rebalanceWait = time.Minute
	// rebalanceJoinAfter is how long the input is fed before the third
	// instance starts (later if the two are not caught up by then).
	rebalanceJoinAfter = 30 * time.Second
	// groupPoll is how often the harness describes the group.
	groupPoll = 50 * time.Millisecond
)

// runRebalance runs the join on each engine, alternating their order
// every round.
func (b *bench) runRebalance(ctx context.Context, props string, set map[string]string) error {
	logPath := brokerLogPath(b.root, b.cfg.bootstrap)
	if logPath == "" {
		b.notes = append(b.notes, "rebalance: rebalances not counted: no broker log (set STOATFLOW_TEST_BROKER_LOG to the broker's server.log)")
	}
	for round := 0; round < b.cfg.rounds; round++ {
		for _, engine := range rotate([]string{engStoat, engKS}, round) {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			r := b.rebalanceRun(ctx, engine, round, props, set, logPath)
			if r.err != nil {
				b.logf("rebalance on %s, round %d: %v", engine, round+1, r.err)
			} else {
				b.logf("rebalance on %s, round %d: output gap %v, %d records restored, %s rebalances, join → stable %v, %d of %d stateful tasks moved",
					engine, round+1, r.gap.Round(time.Millisecond), r.replayed, countOrUnknown(r.rebalances), r.toStable.Round(time.Millisecond),
					r.moved, b.cfg.partitions)
			}
			b.results = append(b.results, r)
		}
	}
	return nil
}

func countOrUnknown(n int) string {
	if n < 0 {
		return "unknown"
	}
	return strconv.Itoa(n)
}

// rebalanceRun starts two instances of engine on a preloaded word count,
// feeds input steadily, waits until they are caught up and the group is
// stable, starts a third, and measures from the moment the group starts
// rebalancing until it is stable again plus rebalanceAfter.
func (b *bench) rebalanceRun(ctx context.Context, engine string, round int, props string, set map[string]string, logPath string) (r result) {
	r = result{workload: "rebalance", engine: engine, round: round, rebalances: -1}
	appID := fmt.Sprintf("bench-rebalance-%s-%d-%s", slug(engine), round, randSuffix())
	input, output := appID+"-in", appID+"-out"
	stateRoot := filepath.Join(b.workDir, appID)
	if !b.cfg.keep {
		defer os.RemoveAll(stateRoot)
		defer b.broker.deletePrefix(context.Background(), appID)
	}
	rctx, cancel := context.WithTimeout(ctx, b.cfg.runTimeout)
	defer cancel()
	fail := func(err error) result {
		r.err = err
		if rctx.Err() != nil && ctx.Err() == nil {
			r.err = fmt.Errorf("not done within %v (-run-timeout): %w", b.cfg.runTimeout, err)
		}
		return r
	}
	if err := b.broker.createTopics(rctx, b.cfg.partitions, nil, input, output); err != nil {
		return fail(err)
	}
	tps, err := b.broker.partitions(input)
	if err != nil {
		return fail(err)
	}
	extra := maps.Clone(set)
	// A stopped StoatFlow instance's static members leave the group, as
	// the reference jar's close does (CloseOptions LEAVE_GROUP).
	extra["stoatflow.shutdown.leave-group"] = "true"
	// Every instance counts as caught up on every task, so the join moves
	// stateful tasks at once and they restore on the new instance. Under
	// the default (10,000) the assignor keeps them on their owners and
	// gives the new instance warm-up replicas, to move them at a probing
	// rebalance probing.rebalance.interval.ms (10 minutes) later; -set
	// acceptable.recovery.lag=10000 measures that join.
	extra["acceptable.recovery.lag"] = strconv.FormatInt(math.MaxInt64, 10)
	var procs []*proc
	defer func() {
		// Every instance is stopped at once; each closes cleanly and
		// leaves the group.
		var wg sync.WaitGroup
		for _, p := range procs {
			wg.Go(func() {
				if err := p.stop(time.Minute); err != nil {
					b.logf("rebalance on %s: %v", engine, err)
				}
			})
		}
		wg.Wait()
	}()
	start := func(label string) (*proc, error) {
		dir := filepath.Join(stateRoot, label)
		if err := seedProcessID(filepath.Join(dir, appID), label); err != nil {
			return nil, err
		}
		s := b.streamsSet(appID, dir, extra)
		s["client.id"] = appID + "-" + label
		p, err := b.startEngine(engine, app{topology: "wordcount", props: props, set: s,
			args: map[string]string{"input": input, "output": output}}, appID, "")
		if err == nil {
			procs = append(procs, p)
		}
		return p, err
	}
	// The first instance starts alone, so that it leads the group.
	for _, label := range []string{"A", "B"} {
		p, err := start(label)
		if err != nil {
			return fail(err)
		}
		if _, err := p.waitRunning(rctx); err != nil {
			return fail(err)
		}
	}
	w := &groupWatch{admin: b.broker.admin, group: appID, log: openBrokerLog(logPath)}
	before, _, err := w.settle(rctx, 2)
	if err != nil {
		return fail(err)
	}
	// The input comes once the two share the work: no task has been
	// processed elsewhere before, so a task that moves at the join restores
	// its whole changelog on either engine.
	preload := b.cfg.rebalanceRecords
	b.logf("rebalance on %s, round %d: producing %d lines to %s", engine, round+1, preload, input)
	if err := produce(rctx, b.cfg.bootstrap, input, preload, b.line); err != nil {
		return fail(err)
	}
	feed := startFeed(rctx, b.cfg.bootstrap, input, b.cfg.rebalanceRate, preload, b.line)
	defer feed.stop()
	tail, err := startTail(b.cfg.bootstrap, output, b.cfg.partitions)
	if err != nil {
		return fail(err)
	}
	defer tail.close()
	// Caught up: the input committed to within a second's feed.
	for {
		c, err := b.broker.committed(rctx, appID, tps)
		if err == nil && c >= int64(preload)+feed.fed()-int64(b.cfg.rebalanceRate) {
			break
		}
		if err := feed.failed(); err != nil {
			return fail(err)
		}
		if err := alive(procs); err != nil {
			return fail(err)
		}
		if rctx.Err() != nil {
			return fail(fmt.Errorf("%d preloaded lines not committed: %v", preload, err))
		}
		time.Sleep(100 * time.Millisecond)
	}
	// Both engines have the same input behind them at the join, so their
	// stores hold the same counts: the join waits for rebalanceJoinAfter's
	// feed (and at least a steady second).
	time.Sleep(time.Second)
	for feed.fed() < int64(float64(b.cfg.rebalanceRate)*rebalanceJoinAfter.Seconds()) {
		if err := feed.failed(); err != nil {
			return fail(err)
		}
		if err := alive(procs); err != nil {
			return fail(err)
		}
		if rctx.Err() != nil {
			return fail(rctx.Err())
		}
		time.Sleep(50 * time.Millisecond)
	}
	r.fedAtJoin = feed.fed()
	if want := int64(float64(b.cfg.rebalanceRate) * rebalanceJoinAfter.Seconds()); r.fedAtJoin > want+int64(b.cfg.rebalanceRate) {
		b.notes = append(b.notes, fmt.Sprintf("rebalance on %s, round %d: the instances caught up only after %d lines of the feed, not %d: "+
			"the join came later, with more state", engine, round+1, r.fedAtJoin, want))
	}
	w.poll() // only what the join causes counts
	gens := w.generations
	if _, err := start("C"); err != nil {
		return fail(err)
	}
	joined, err := w.waitChange(rctx, 2)
	if err != nil {
		return fail(err)
	}
	after, stableAt, err := w.settle(rctx, 3)
	if err != nil {
		return fail(err)
	}
	// Every output partition must hear from the application again, at
	// least rebalanceAfter past the group's stability.
	end := stableAt.Add(rebalanceAfter)
	for {
		now := time.Now()
		if !now.Before(end) && tail.allSince(stableAt) {
			end = now
			break
		}
		if now.After(stableAt.Add(rebalanceWait)) {
			b.notes = append(b.notes, fmt.Sprintf("rebalance on %s, round %d: an output partition received nothing for %v past the group's stability; "+
				"the gap is a lower bound", engine, round+1, rebalanceWait))
			end = now
			break
		}
		if err := alive(procs); err != nil {
			return fail(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := feed.failed(); err != nil {
		return fail(err)
	}
	var gapPart int
	r.gap, gapPart = longestGap(tail.snapshot(), joined, end)
	r.toStable = stableAt.Sub(joined)
	var restores []string
	for i, p := range procs {
		r.replayed += restoredBetween(p.linesWith("RESTORE-"), joined, end)
		r.replayed += restoredBetween(p.linesWith("STANDBY-BATCH "), joined, end)
		restores = append(restores, describeRestores(fmt.Sprintf("%c", 'A'+i), p.linesWith("RESTORE-"), joined, end)...)
		if n := restoredBetween(p.linesWith("STANDBY-BATCH "), joined, end); n > 0 {
			restores = append(restores, fmt.Sprintf("%c loaded %d into standby or warm-up replicas", 'A'+i, n))
		}
	}
	if w.log != nil {
		w.poll()
		r.rebalances = w.generations - gens
	}
	r.moved = movedTasks(before, after, appID)
	for _, p := range procs {
		if rss, err := p.peakRSS(); err == nil && rss > r.rss {
			r.rss = rss
		}
	}
	b.logf("rebalance on %s, round %d: the longest gap was on output partition %d; %d lines fed at %d/s, %d of them before the join; "+
		"stateful tasks %s; restores: %s", engine, round+1, gapPart, feed.fed(), b.cfg.rebalanceRate, r.fedAtJoin,
		statefulOwners(before, after, appID), strings.Join(restores, ", "))
	return r
}

// seedProcessID writes the process id file both engines keep in
// <state.dir>/<application.id> (kafka-streams-process-metadata, the JSON
// Kafka Streams writes), a fixed UUID per instance label. The assignors
// order clients by process id, so fixed ids make both engines, every round,
// start from the same assignment and move the same tasks at the join.
func seedProcessID(appDir, label string) error {
	if err := os.MkdirAll(appDir, 0o755); err != nil {
		return err
	}
	var n uint64
	for _, c := range label {
		n = n<<8 | uint64(c)
	}
	id := fmt.Sprintf(`{"processId":"00000000-0000-4000-8000-%012x"}`, n)
	return os.WriteFile(filepath.Join(appDir, "kafka-streams-process-metadata"), []byte(id), 0o644)
}

// alive returns an error naming the first instance that exited.
func alive(procs []*proc) error {
	for _, p := range procs {
		if !p.alive() {
			return fmt.Errorf("an instance exited: %v\n%s", p.err, p.stderr.String())
		}
	}
	return nil
}

// longestGap is the longest time within [from, to] during which some
// partition received nothing, and that partition. arrivals holds each
// partition's arrival times in order; from and to bound every partition's
// silence, so a partition that received nothing in the window has a gap of
// the whole window.
func longestGap(arrivals [][]time.Time, from, to time.Time) (time.Duration, int) {
	var gap time.Duration
	at := -1
	for p, ts := range arrivals {
		prev := from
		for _, a := range ts {
			if !a.After(prev) {
				continue
			}
			if a.After(to) {
				break
			}
			if d := a.Sub(prev); d > gap || at < 0 {
				gap, at = d, p
			}
			prev = a
		}
		if d := to.Sub(prev); d > gap || at < 0 {
			gap, at = d, p
		}
	}
	return gap, at
}

// restoredBetween sums the records of the RESTORE-END, RESTORE-SUSPENDED
// and STANDBY-BATCH lines read within [from, to]: the records of every
// restore that ended, of every one interrupted before its end (whose next
// restore resumes where it stopped, so nothing counts twice), and of every
// batch a Kafka Streams standby or warm-up replica loaded (a warm-up
// promoted to active restores only the rest). The lines end with the
// records: StoatFlow children print RESTORE-END <unix ns> <store>
// <changelog partition> <records>, the reference jar RESTORE-END <store>
// <changelog partition> <records>.
func restoredBetween(lines []stamped, from, to time.Time) int64 {
	var n int64
	for _, l := range lines {
		if l.at.Before(from) || l.at.After(to) {
			continue
		}
		f := strings.Fields(l.text)
		if len(f) < 4 || (f[0] != "RESTORE-END" && f[0] != "RESTORE-SUSPENDED" && f[0] != "STANDBY-BATCH") {
			continue
		}
		if x, err := strconv.ParseInt(f[len(f)-1], 10, 64); err == nil {
			n += x
		}
	}
	return n
}

// describeRestores names an instance's restores within [from, to] for the
// log: "<instance> <changelog partition> from <offset> to <end offset>:
// <records>". Both engines' RESTORE-START lines give the changelog
// partition, then the start and end offsets.
func describeRestores(instance string, lines []stamped, from, to time.Time) []string {
	start := map[string]string{}
	var out []string
	for _, l := range lines {
		if l.at.Before(from) || l.at.After(to) {
			continue
		}
		f := strings.Fields(l.text)
		i := slices.IndexFunc(f, func(s string) bool { return strings.Contains(s, "-changelog-") })
		if i < 0 || i+1 >= len(f) {
			continue
		}
		tp := f[i][strings.LastIndexByte(f[i], '-')+1:]
		switch f[0] {
		case "RESTORE-START":
			if i+2 < len(f) {
				start[tp] = f[i+1] + " to " + f[i+2]
			}
		case "RESTORE-END":
			out = append(out, fmt.Sprintf("%s %s from %s: %s", instance, tp, start[tp], f[len(f)-1]))
		case "RESTORE-SUSPENDED":
			out = append(out, fmt.Sprintf("%s %s from %s: %s, suspended", instance, tp, start[tp], f[len(f)-1]))
		}
	}
	return out
}

// statefulOwners lists each stateful task's instance before and after,
// "1_<p> A→C", in partition order.
func statefulOwners(before, after map[topicPartition]string, appID string) string {
	var tps []topicPartition
	for tp := range after {
		if strings.HasPrefix(tp.topic, appID+"-") && strings.HasSuffix(tp.topic, "-repartition") {
			tps = append(tps, tp)
		}
	}
	slices.SortFunc(tps, func(a, b topicPartition) int { return int(a.partition - b.partition) })
	var out []string
	for _, tp := range tps {
		out = append(out, fmt.Sprintf("1_%d %s→%s", tp.partition, before[tp], after[tp]))
	}
	return strings.Join(out, ", ")
}

// movedTasks counts the stateful tasks (the partitions of the repartition
// topic, which the count reads) whose instance changed between two
// assignments.
func movedTasks(before, after map[topicPartition]string, appID string) int {
	n := 0
	for tp, owner := range after {
		if !strings.HasPrefix(tp.topic, appID+"-") || !strings.HasSuffix(tp.topic, "-repartition") {
			continue
		}
		if before[tp] != owner {
			n++
		}
	}
	return n
}

// instanceOf is the instance label a member's client id carries:
// <application.id>-<label>-StreamThread-<n>-consumer on both engines.
func instanceOf(clientID, appID string) string {
	s := strings.TrimPrefix(clientID, appID+"-")
	if i := strings.Index(s, "-StreamThread-"); i >= 0 {
		s = s[:i]
	}
	return s
}

// groupWatch observes one group: its description, and the broker log's
// lines about it when the log is known.
type groupWatch struct {
	admin *kadm.Client
	group string
	log   *brokerLog // nil: unknown

	generations int // "Stabilized group" lines read so far
	preparing   int // "Preparing to rebalance group" lines read so far
}

// groupState is one description of the group.
type groupState struct {
	stable bool                      // Stable, with the members wanted, each holding partitions
	owners map[topicPartition]string // partition → instance
}

func (w *groupWatch) describe(ctx context.Context, members int) groupState {
	dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	gs, err := w.admin.DescribeGroups(dctx, w.group)
	if err != nil {
		return groupState{}
	}
	g, ok := gs[w.group]
	if !ok || g.Err != nil || g.State != "Stable" || len(g.Members) != members {
		return groupState{}
	}
	st := groupState{stable: true, owners: map[topicPartition]string{}}
	for _, m := range g.Members {
		ma, ok := m.Assigned.AsConsumer()
		if !ok || len(ma.Topics) == 0 {
			return groupState{}
		}
		for _, t := range ma.Topics {
			for _, p := range t.Partitions {
				st.owners[topicPartition{t.Topic, p}] = instanceOf(m.ClientID, w.group)
			}
		}
	}
	return st
}

// poll reads the broker log's new lines about the group and reports
// whether there were any.
func (w *groupWatch) poll() bool {
	if w.log == nil {
		return false
	}
	gens, prep := w.log.read(w.group)
	w.generations += gens
	w.preparing += prep
	return gens+prep > 0
}

// settle waits until the group is settled with members members and
// returns its assignment and when it became stable.
func (w *groupWatch) settle(ctx context.Context, members int) (map[topicPartition]string, time.Time, error) {
	var s settler
	for {
		st := w.describe(ctx, members)
		changed := w.poll()
		if at, ok := s.observe(time.Now(), st.stable, changed); ok {
			return st.owners, at, nil
		}
		select {
		case <-ctx.Done():
			return nil, time.Time{}, fmt.Errorf("the group did not settle with %d members: %w", members, ctx.Err())
		case <-time.After(groupPoll):
		}
	}
}

// waitChange waits until the group stops being stable with members
// members, or the broker log says it started a rebalance, and returns
// when.
func (w *groupWatch) waitChange(ctx context.Context, members int) (time.Time, error) {
	for {
		st := w.describe(ctx, members)
		if changed := w.poll(); changed || !st.stable {
			return time.Now(), nil
		}
		select {
		case <-ctx.Done():
			return time.Time{}, fmt.Errorf("the group did not start rebalancing: %w", ctx.Err())
		case <-time.After(groupPoll):
		}
	}
}

// settler decides from successive observations of a group when it has
// settled: stable for rebalanceQuiet with no rebalance seen meanwhile.
type settler struct {
	since time.Time // start of the current stable stretch; zero: not stable
}

// observe takes one observation: whether the group looked stable at at,
// and whether a rebalance was seen since the last one. It returns when the
// group became stable once it has stayed so for rebalanceQuiet.
func (s *settler) observe(at time.Time, stable, rebalanced bool) (time.Time, bool) {
	switch {
	case !stable:
		s.since = time.Time{}
	case rebalanced || s.since.IsZero():
		// A generation came and went between two descriptions: the stable
		// stretch starts now.
		s.since = at
	case at.Sub(s.since) >= rebalanceQuiet:
		return s.since, true
	}
	return time.Time{}, false
}

// brokerLogPath is the broker's server.log: $STOATFLOW_TEST_BROKER_LOG, or
// where integration/kafka.sh writes it for the bootstrap's port; empty
// when there is none.
func brokerLogPath(root, bootstrap string) string {
	path := os.Getenv("STOATFLOW_TEST_BROKER_LOG")
	if path == "" {
		home := os.Getenv("STOATFLOW_KAFKA_HOME")
		if home == "" {
			home = filepath.Join(root, ".cache")
		}
		port := "9092"
		if i := strings.LastIndex(bootstrap, ":"); i >= 0 {
			port = bootstrap[i+1:]
		}
		path = filepath.Join(home, "kafka-run", port, "server.log")
	}
	if _, err := os.Stat(path); err != nil {
		return ""
	}
	return path
}

// brokerLog reads the group coordinator's lines of the broker's log as it
// grows, which count a group's rebalances whatever engine its members run.
type brokerLog struct {
	path string
	off  int64
	rest []byte // a line not yet complete
}

// openBrokerLog starts reading path at its end; nil when path is empty or
// unreadable.
func openBrokerLog(path string) *brokerLog {
	if path == "" {
		return nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil
	}
	return &brokerLog{path: path, off: fi.Size()}
}

// read returns how many generations of group the coordinator stabilized,
// and how many rebalances of it it began, in the lines written since the
// last read.
func (l *brokerLog) read(group string) (stabilized, preparing int) {
	f, err := os.Open(l.path)
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() < l.off {
		l.off, l.rest = 0, nil // rolled over
	}
	if _, err := f.Seek(l.off, io.SeekStart); err != nil {
		return 0, 0
	}
	raw, err := io.ReadAll(f)
	if err != nil {
		return 0, 0
	}
	l.off += int64(len(raw))
	raw = append(l.rest, raw...)
	i := bytes.LastIndexByte(raw, '\n')
	l.rest = append([]byte(nil), raw[i+1:]...)
	return countGroupLines(raw[:i+1], group)
}

// countGroupLines counts a group's "Stabilized group <group> generation"
// and "Preparing to rebalance group <group> in state" lines.
func countGroupLines(raw []byte, group string) (stabilized, preparing int) {
	stab := "Stabilized group " + group + " generation "
	prep := "Preparing to rebalance group " + group + " in state "
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 64<<10), 1<<24)
	for sc.Scan() {
		switch line := sc.Text(); {
		case strings.Contains(line, stab):
			stabilized++
		case strings.Contains(line, prep):
			preparing++
		}
	}
	return stabilized, preparing
}

// steadyFeed produces word-count lines at a fixed rate in the background.
type steadyFeed struct {
	n      atomic.Int64
	err    atomic.Pointer[error]
	cancel context.CancelFunc
	done   chan struct{}
}

// startFeed produces rate lines per second, gen(first), gen(first+1), ...,
// to topic until stopped.
func startFeed(ctx context.Context, bootstrap, topic string, rate, first int, gen func(int) record) *steadyFeed {
	ctx, cancel := context.WithCancel(ctx)
	f := &steadyFeed{cancel: cancel, done: make(chan struct{})}
	setErr := func(err error) { f.err.CompareAndSwap(nil, &err) }
	go func() {
		defer close(f.done)
		p, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(bootstrap, ",")...),
			kgo.DefaultProduceTopic(topic), kgo.ProducerLinger(5*time.Millisecond))
		if err != nil {
			setErr(err)
			return
		}
		defer p.Close()
		promise := func(_ *kgo.Record, err error) {
			if err != nil {
				setErr(fmt.Errorf("bench: feeding %s: %w", topic, err))
			}
		}
		begin := time.Now()
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		i := 0
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-t.C:
				for due := int(float64(rate) * now.Sub(begin).Seconds()); i < due; i++ {
					r := gen(first + i)
					p.Produce(ctx, &kgo.Record{Key: r.key, Value: r.value, Timestamp: time.Now()}, promise)
				}
				f.n.Store(int64(i))
			}
		}
	}()
	return f
}

// fed is how many lines the feed has handed to its producer.
func (f *steadyFeed) fed() int64 { return f.n.Load() }

func (f *steadyFeed) failed() error {
	if err := f.err.Load(); err != nil {
		return *err
	}
	return nil
}

func (f *steadyFeed) stop() {
	f.cancel()
	<-f.done
}

// outputTail reads a topic read_committed from its end and keeps, for each
// partition, the times records arrived (one per poll that brought any).
type outputTail struct {
	mu      sync.Mutex
	arrived [][]time.Time
	cancel  context.CancelFunc
	done    chan struct{}
}

func startTail(bootstrap, topic string, partitions int) (*outputTail, error) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(bootstrap, ",")...),
		kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtEnd()),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()),
		kgo.FetchMaxWait(10*time.Millisecond),
	)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	o := &outputTail{arrived: make([][]time.Time, partitions), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(o.done)
		defer cl.Close()
		for ctx.Err() == nil {
			fs := cl.PollFetches(ctx)
			now := time.Now()
			o.mu.Lock()
			fs.EachPartition(func(p kgo.FetchTopicPartition) {
				if len(p.Records) > 0 && int(p.Partition) < len(o.arrived) {
					o.arrived[p.Partition] = append(o.arrived[p.Partition], now)
				}
			})
			o.mu.Unlock()
		}
	}()
	return o, nil
}

// allSince reports whether every partition received a record after at.
func (o *outputTail) allSince(at time.Time) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, ts := range o.arrived {
		if len(ts) == 0 || !ts[len(ts)-1].After(at) {
			return false
		}
	}
	return true
}

func (o *outputTail) snapshot() [][]time.Time {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([][]time.Time, len(o.arrived))
	for i, ts := range o.arrived {
		out[i] = append([]time.Time(nil), ts...)
	}
	return out
}

func (o *outputTail) close() {
	o.cancel()
	<-o.done
}
