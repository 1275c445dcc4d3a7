package integration

import (
	"context"
	"encoding/hex"
	"fmt"
	"slices"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state"
)

// The check of a workload whose output depends on timing (crashWorkload's
// settling): its last values, and the order of its results.

// internalSources returns the repartition topics the topology reads (for a
// foreign-key join its subscription-registration and -response topics), as
// the broker names them.
func (r *crashRun) internalSources() []string {
	var out []string
	for _, it := range r.topo.InternalTopics(kstreams.InternalTopicsConfig{ApplicationID: r.appID}) {
		if it.Kind == kstreams.RepartitionTopicKind {
			out = append(out, it.Name)
		}
	}
	return out
}

// waitInternalConsumed waits, once the input is committed, until the group
// has also consumed and committed every record of the internal topics it
// reads: then no record the input caused is still on its way. The group's
// offsets are read before the topics' ends, so that a record written after
// the offsets were read belongs to a transaction that consumed a record
// beyond them, which shows as a partition behind; an open transaction on
// any partition (its last stable offset short of its end) counts as
// behind too. An internal topic's log ends in commit and abort markers, so
// a partition is consumed when its committed offset is past its last
// committed data record, not when it reaches the end.
func (r *crashRun) waitInternalConsumed(timeout time.Duration) error {
	topics := r.internalSources()
	if len(topics) == 0 {
		return nil
	}
	cl, err := testkafka.NewClient(r.bootstrap)
	if err != nil {
		return err
	}
	defer cl.Close()
	admin := kadm.NewClient(cl)
	deadline := time.Now().Add(timeout)
	for {
		behind, err := r.internalBehind(admin, topics)
		if err == nil && len(behind) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("internal topics not consumed within %v after the input was: %v (%v)", timeout, behind, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// internalBehind lists the partitions of topics the group has not consumed
// to their last committed data record, or that a transaction holds open.
func (r *crashRun) internalBehind(admin *kadm.Client, topics []string) ([]string, error) {
	committed := map[string][]int64{}
	for _, topic := range topics {
		c, err := testkafka.CommittedWith(admin, r.appID, topic, r.w.partitions, 10*time.Second)
		if err != nil {
			return nil, err
		}
		committed[topic] = c
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	stable, err := testkafka.ListOffsets(ctx, admin, true, topics...)
	if err != nil {
		return nil, err
	}
	ends, err := testkafka.ListOffsets(ctx, admin, false, topics...)
	if err != nil {
		return nil, err
	}
	starts, err := testkafka.StartOffsets(ctx, admin, topics...)
	if err != nil {
		return nil, err
	}
	var behind []string
	upTo := map[state.TopicPartition]int64{}
	for _, topic := range topics {
		for p := 0; p < r.w.partitions; p++ {
			tp := state.TopicPartition{Topic: topic, Partition: int32(p)}
			lso, end, start := stable[topic][tp.Partition], ends[topic][tp.Partition], starts[topic][tp.Partition]
			switch {
			case lso != end:
				behind = append(behind, fmt.Sprintf("%s: a transaction is open from %d to the end %d", tp, lso, end))
			case start < lso:
				// The records below the log start were purged once
				// committed; those from it on are read.
				upTo[tp] = lso - 1
			}
		}
	}
	if len(behind) > 0 {
		return behind, nil
	}
	logs, err := r.readChangelogs(upTo)
	if err != nil {
		return nil, err
	}
	for tp := range upTo {
		recs := logs[tp]
		if len(recs) == 0 {
			continue // only markers and aborted records after the purge point
		}
		last := recs[len(recs)-1].offset
		if c := committed[tp.Topic][tp.Partition]; c <= last {
			behind = append(behind, fmt.Sprintf("%s: committed %d, last record at %d", tp, c, last))
		}
	}
	slices.Sort(behind)
	return behind, nil
}

// readOutputsToEnd reads every output topic read_committed to its end,
// grouped as expected groups them.
func (r *crashRun) readOutputsToEnd() (map[string]map[string][]string, error) {
	cl, err := testkafka.NewClient(r.bootstrap)
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	admin := kadm.NewClient(cl)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	upTo := map[state.TopicPartition]int64{}
	for _, o := range r.w.outputs {
		topic := r.args[o]
		stable, err := testkafka.ListOffsets(ctx, admin, true, topic)
		if err != nil {
			return nil, err
		}
		for p, lso := range stable[topic] {
			if lso > 0 {
				upTo[state.TopicPartition{Topic: topic, Partition: p}] = lso - 1
			}
		}
	}
	logs, err := r.readChangelogs(upTo)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string][]string{}
	for _, o := range r.w.outputs {
		byKey := map[string][]string{}
		for p := 0; p < r.w.partitions; p++ {
			for _, rec := range logs[state.TopicPartition{Topic: r.args[o], Partition: int32(p)}] {
				k := hex.EncodeToString(rec.rec.Key)
				byKey[k] = append(byKey[k], valueHex(rec.rec.Value))
			}
		}
		out[o] = byKey
	}
	return out, nil
}

// checkSettled checks the committed output of a settling workload against
// the in-process one: every key's last value is the same (no record and a
// tombstone alike), and under exactly_once_v2 every non-null committed
// value is a result the topology can produce for its key, ranked above the
// key's previous one, so that no result is there twice and none out of
// order. A lost result shows as a wrong last value: the workload's keys
// stop changing one after the other during the run, so their last results
// are computed between kills, not only in the final run.
func (r *crashRun) checkSettled(o string, got, want map[string][]string, report func(string, ...any)) {
	last := func(seq []string) string {
		if len(seq) == 0 {
			return "null"
		}
		return seq[len(seq)-1]
	}
	keys := map[string]bool{}
	for k := range want {
		keys[k] = true
	}
	for k := range got {
		keys[k] = true
	}
	nGot, nWant, differ := 0, 0, 0
	for k := range keys {
		g, w := got[k], want[k]
		nGot += len(g)
		nWant += len(w)
		if !slices.Equal(g, w) {
			differ++
		}
		key := decodeHex(k)
		if lg, lw := last(g), last(w); lg != lw {
			report("%s key %s: last committed value %s, want %s (%d committed updates, %d in process) (I3)",
				o, key, decodeHex(lg), decodeHex(lw), len(g), len(w))
		}
		if r.guarantee != "exactly_once_v2" {
			continue
		}
		prev, prevValue := int64(-1), ""
		for n, v := range g {
			if v == "null" {
				continue
			}
			value := decodeHex(v)
			rank, err := r.w.settling(key, value)
			if err != nil {
				report("%s key %s: committed update %d %q is no result of the topology for the input: %v (I3)", o, key, n+1, value, err)
				continue
			}
			if rank <= prev {
				report("%s key %s: committed update %d %q after %q: a result repeated or out of order (I3)", o, key, n+1, value, prevValue)
			}
			prev, prevValue = rank, value
		}
	}
	r.t.Logf("settled output %s: %d keys, %d committed updates, %d in process, %d keys whose sequence differs from the in-process one",
		o, len(keys), nGot, nWant, differ)
}

// decodeHex turns a hex key or value back into its text ("null" stays).
func decodeHex(h string) string {
	if h == "null" {
		return h
	}
	b, err := hex.DecodeString(h)
	if err != nil {
		return h
	}
	return string(b)
}
