package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/internal/streamsgroup"
)

// Watching a group: a classic group's members and their partitions
// through the admin client, and its rebalances through the broker's log;
// a streams group's (group.protocol=streams, KIP-1071) members, tasks and
// rebalances through StreamsGroupDescribe.

const (
	// rebalanceQuiet is how long the group must stay stable, with every
	// member holding partitions and no new generation, to count as
	// settled: a follow-up rebalance (cooperative revocation, tasks held
	// back) starts well within it.
	rebalanceQuiet = 3 * time.Second
	// groupPoll is how often the harness describes the group.
	groupPoll = 50 * time.Millisecond
)

// statefulTasks maps each stateful task of owners, an assignment, to its
// instance: the count's task 1_<p> reads partition p of the repartition
// topic, and writes partition p of the output (the same key, serializer
// and partitioner).
func statefulTasks(owners map[topicPartition]string, appID string) map[int32]string {
	out := map[int32]string{}
	for tp, owner := range owners {
		if strings.HasPrefix(tp.topic, appID+"-") && strings.HasSuffix(tp.topic, "-repartition") {
			out[tp.partition] = owner
		}
	}
	return out
}

// streamsState is what a StreamsGroupDescribe of a streams group says:
// its epoch and, when it is Stable with members members each holding
// active tasks, each stateful task's instance. The stateful tasks are those
// of the subtopologies that read a repartition topic (the count's, 1_<p>),
// as statefulTasks takes them from a classic assignment.
func streamsState(g kmsg.StreamsGroupDescribeResponseGroup, members int) groupState {
	st := groupState{epoch: g.Epoch}
	if !strings.EqualFold(g.State, "Stable") || len(g.Members) != members || g.Topology == nil {
		return st
	}
	stateful := map[string]bool{}
	for _, s := range g.Topology.Subtopologies {
		if len(s.RepartitionSourceTopics) > 0 {
			stateful[s.SubtopologyID] = true
		}
	}
	tasks := map[int32]string{}
	for _, m := range g.Members {
		if len(m.Assignment.ActiveTasks) == 0 {
			return st
		}
		for _, t := range m.Assignment.ActiveTasks {
			if stateful[t.SubtopologyID] {
				for _, p := range t.Partitions {
					tasks[p] = instanceOf(m.ClientID, g.Group)
				}
			}
		}
	}
	st.stable, st.tasks = true, tasks
	return st
}

// statefulOwners lists each stateful task's instance before and after,
// "1_<p> A→C", in partition order; before and after map each task's
// partition to its instance.
func statefulOwners(before, after map[int32]string) string {
	var out []string
	for _, p := range slices.Sorted(maps.Keys(after)) {
		out = append(out, fmt.Sprintf("1_%d %s→%s", p, before[p], after[p]))
	}
	return strings.Join(out, ", ")
}

// movedTasks counts the stateful tasks whose instance changed between two
// assignments.
func movedTasks(before, after map[int32]string) int {
	n := 0
	for p, owner := range after {
		if before[p] != owner {
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

// groupWatch observes one group: its description and its rebalances,
// from the broker log's lines about it (a classic group, when the log is
// known) or from its group epoch (a streams group).
type groupWatch struct {
	admin   *kadm.Client
	client  *kgo.Client // a streams group's describer
	group   string
	streams bool       // a streams group: StreamsGroupDescribe, rebalances by epoch
	log     *brokerLog // classic: nil when unknown

	// generations counts the rebalances seen so far: a classic group's
	// "Stabilized group" lines read, a streams group's epoch increases
	// described.
	generations int
	preparing   int   // "Preparing to rebalance group" lines read so far
	epoch       int32 // the streams group's last described epoch; 0: none yet
}

// groupState is one description of the group.
type groupState struct {
	stable bool             // Stable, with the members wanted, each holding partitions (tasks)
	tasks  map[int32]string // each stateful task's partition → instance, when stable
	epoch  int32            // a streams group's epoch; 0: not described
}

// counts reports whether the watch counts the group's rebalances.
func (w *groupWatch) counts() bool { return w.streams || w.log != nil }

func (w *groupWatch) describe(ctx context.Context, members int) groupState {
	dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if w.streams {
		g, err := streamsgroup.Describe(dctx, w.client, w.group)
		if err != nil {
			return groupState{}
		}
		return streamsState(g, members)
	}
	gs, err := w.admin.DescribeGroups(dctx, w.group)
	if err != nil {
		return groupState{}
	}
	g, ok := gs[w.group]
	if !ok || g.Err != nil || g.State != "Stable" || len(g.Members) != members {
		return groupState{}
	}
	owners := map[topicPartition]string{}
	for _, m := range g.Members {
		ma, ok := m.Assigned.AsConsumer()
		if !ok || len(ma.Topics) == 0 {
			return groupState{}
		}
		for _, t := range ma.Topics {
			for _, p := range t.Partitions {
				owners[topicPartition{t.Topic, p}] = instanceOf(m.ClientID, w.group)
			}
		}
	}
	return groupState{stable: true, tasks: statefulTasks(owners, w.group)}
}

// poll counts the group's rebalances since the last count and reports
// whether there were any: the broker log's new lines about a classic
// group, or a streams group's epoch, described now.
func (w *groupWatch) poll(ctx context.Context) bool {
	if w.streams {
		return w.counted(w.describe(ctx, 0))
	}
	return w.counted(groupState{})
}

// counted counts the group's rebalances since the last count, from the
// broker log (classic) or from st's epoch (streams: each rebalance of a
// streams group raises its epoch), and reports whether there were any.
func (w *groupWatch) counted(st groupState) bool {
	if w.streams {
		if st.epoch <= 0 {
			return false // not described
		}
		prev := w.epoch
		w.epoch = st.epoch
		if prev <= 0 || st.epoch <= prev {
			return false // the first look, or the group was made anew
		}
		w.generations += int(st.epoch - prev)
		return true
	}
	if w.log == nil {
		return false
	}
	gens, prep := w.log.read(w.group)
	w.generations += gens
	w.preparing += prep
	return gens+prep > 0
}

// settle waits until the group is settled with members members and
// returns each stateful task's instance and when it became stable.
func (w *groupWatch) settle(ctx context.Context, members int) (map[int32]string, time.Time, error) {
	var s settler
	for {
		st := w.describe(ctx, members)
		changed := w.counted(st)
		if at, ok := s.observe(time.Now(), st.stable, changed); ok {
			return st.tasks, at, nil
		}
		select {
		case <-ctx.Done():
			return nil, time.Time{}, fmt.Errorf("the group did not settle with %d members: %w", members, ctx.Err())
		case <-time.After(groupPoll):
		}
	}
}

// waitChange waits until the group stops being stable with members
// members, or the broker log or its epoch says it started a rebalance, and
// returns when.
func (w *groupWatch) waitChange(ctx context.Context, members int) (time.Time, error) {
	for {
		st := w.describe(ctx, members)
		if changed := w.counted(st); changed || !st.stable {
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
