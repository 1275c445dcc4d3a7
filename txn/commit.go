package txn

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/internal/failpoint"
	"github.com/stoatflow/stoatflow/internal/invariants"
	"github.com/stoatflow/stoatflow/state"
)

// Trigger says why an epoch ended.
type Trigger int

const (
	// TriggerTime: commit.interval.ms elapsed.
	TriggerTime Trigger = iota
	// TriggerMemoryPressure: the thread's uncommitted bytes passed its share
	// of statestore.uncommitted.max.bytes.
	TriggerMemoryPressure
	// TriggerRequested: a processor or the runtime asked for a commit
	// (revocation, shutdown).
	TriggerRequested
)

func (t Trigger) String() string {
	switch t {
	case TriggerTime:
		return "TIME"
	case TriggerMemoryPressure:
		return "MEMORY_PRESSURE"
	case TriggerRequested:
		return "REQUESTED"
	}
	return fmt.Sprintf("Trigger(%d)", int(t))
}

// Barrier decides when a stream thread's epoch ends: after the commit
// interval, or early once the thread's uncommitted bytes exceed its share of
// the instance budget.
type Barrier struct {
	// Interval is commit.interval.ms.
	Interval time.Duration
	// MaxUncommitted is the thread's share of statestore.uncommitted.max.bytes;
	// zero or less disables the bound.
	MaxUncommitted int64
	// Uncommitted returns the thread's uncommitted bytes, cheaply.
	Uncommitted func() int64

	epoch uint64
	start time.Time
}

// Start begins the first epoch.
func (b *Barrier) Start(now time.Time) { b.start = now }

// Due reports whether the current epoch should end now, and why.
func (b *Barrier) Due(now time.Time) (Trigger, bool) {
	if b.MaxUncommitted > 0 && b.Uncommitted != nil && b.Uncommitted() > b.MaxUncommitted {
		return TriggerMemoryPressure, true
	}
	if now.Sub(b.start) >= b.Interval {
		return TriggerTime, true
	}
	return 0, false
}

// Next ends the epoch: the next one starts at now.
func (b *Barrier) Next(now time.Time) {
	b.epoch++
	b.start = now
}

// Epoch returns the number of completed epochs.
func (b *Barrier) Epoch() uint64 { return b.epoch }

// StoreCommit names a store taking part in a commit and the changelog
// partition whose offset it records.
type StoreCommit struct {
	Store state.Store
	// Partition is the partition of the task the store belongs to: stores
	// of one name exist once per task.
	Partition int32
	// Changelog is the store's changelog partition; nil when logging is
	// disabled.
	Changelog *state.TopicPartition
	// SourceOffset, for a store whose changelog is a source topic the task
	// reads (a table under reuse.ktable.source.topics), is the last offset
	// of it the store has applied: the store records it in place of a
	// produced changelog offset. Nil otherwise.
	SourceOffset *int64
}

// CommitStats are the timings of one commit, for metrics and benchmarks.
type CommitStats struct {
	Trigger     Trigger
	Flush       time.Duration // sending pending output and changelog records
	KafkaCommit time.Duration // send offsets + commit transaction, or commit offsets
	StoreCommit time.Duration // every store's write batch
	Stores      int
	// Outcome is OutcomeCommitted or OutcomeAborted when the commit was
	// sent and its answer lost, and the group's committed offsets told
	// what became of it (Producer.CommitTransaction).
	Outcome Outcome
}

// Committer runs the commit protocol of one stream thread:
//
//  1. flush output and changelog records;
//  2. exactly_once_v2: send the consumed offsets to the transaction and
//     commit it; at_least_once: commit the consumed offsets;
//  3. only then, each store commits its overlay together with its changelog
//     offset.
//
// A failure in 1 or 2 aborts the transaction and drops every overlay: no
// store ever holds a write of a transaction that did not commit.
type Committer struct {
	Producer *Producer
	// Consumer is the thread's main consumer: it supplies the member id and
	// generation of the offsets' commit, and sends that commit under
	// at_least_once.
	Consumer *kgo.Client
	// Member, if set, supplies the member id and generation instead of the
	// Consumer, whose client is then in no group: a streams group's member
	// (KIP-1071) commits with its member epoch as the generation.
	Member func() (memberID string, generation int32)
	// Group is application.id; InstanceID the consumer's group.instance.id
	// under static membership, else nil.
	Group      string
	InstanceID *string
	EOS        bool
	// OnFailed, if set, decides about the epoch's records that were not
	// written (Producer.TakeFailed) before anything commits: nil commits
	// without them (it may have sent other records, dead letters, which the
	// commit flushes in turn); an error ends the epoch with it. Unset, a
	// failed record fails the commit.
	OnFailed func(ctx context.Context, failed []Failed) error

	ids topicIDs
	// changelog holds, per changelog partition, the last offset known to be
	// committed to Kafka: from restore, then from every commit.
	changelog map[state.TopicPartition]int64
}

// SetChangelogOffset records the last changelog offset of tp known to be
// committed on Kafka (after restore: the changelog's last record).
func (c *Committer) SetChangelogOffset(tp state.TopicPartition, offset int64) {
	if invariants.Enabled {
		if cur, ok := c.changelog[tp]; ok && offset < cur {
			invariants.Failf("txn: changelog %s: known committed offset moves back from %d to %d", tp, cur, offset)
		}
	}
	if c.changelog == nil {
		c.changelog = map[state.TopicPartition]int64{}
	}
	c.changelog[tp] = offset
}

// ForgetChangelog drops what is known of tp, when its task leaves the thread.
func (c *Committer) ForgetChangelog(tp state.TopicPartition) { delete(c.changelog, tp) }

// StoreCommitError reports stores that failed to commit after the Kafka
// commit succeeded. Their durable offsets lag; restore replays the
// difference, so nothing is lost, but their tasks must be reopened.
type StoreCommitError struct {
	// Failed lists each failed store once, ordered by store name and then
	// partition.
	Failed []StoreFailure
}

// StoreFailure is one store's failed commit.
type StoreFailure struct {
	Store     string
	Partition int32
	Err       error
}

func (e *StoreCommitError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "txn: %d store(s) failed to commit after the Kafka commit (restore replays what they miss when their tasks reopen):", len(e.Failed))
	for i, f := range e.Failed {
		if i > 0 {
			b.WriteByte(';')
		}
		fmt.Fprintf(&b, " %s [partition %d]: %v", f.Store, f.Partition, f.Err)
	}
	return b.String()
}

// Unwrap returns every store's error, in the order of Failed, for errors.Is
// and errors.As.
func (e *StoreCommitError) Unwrap() []error {
	out := make([]error, len(e.Failed))
	for i, f := range e.Failed {
		out[i] = f.Err
	}
	return out
}

// Commit ends the epoch. offsets are the consumed positions (the next offset
// to read) of the thread's input partitions.
func (c *Committer) Commit(ctx context.Context, trigger Trigger, offsets []Offset, stores []StoreCommit) (CommitStats, error) {
	stats := CommitStats{Trigger: trigger, Stores: len(stores)}
	t0 := time.Now()
	if err := c.kafkaCommit(ctx, offsets, &stats, t0); err != nil {
		c.abort(ctx, stores)
		return stats, err
	}
	if err := failpoint.Hit(failpoint.AfterCommit); err != nil {
		return stats, err
	}
	taken := c.Producer.TakeOffsets()
	for tp, off := range taken {
		c.SetChangelogOffset(state.TopicPartition{Topic: tp.Topic, Partition: tp.Partition}, off)
	}

	t2 := time.Now()
	var failed []StoreFailure
	for i, sc := range stores {
		if i > 0 {
			if err := failpoint.Hit(failpoint.BetweenStores); err != nil {
				return stats, err
			}
		}
		offs := map[state.TopicPartition]*int64{}
		switch {
		case sc.SourceOffset != nil:
			offs[*sc.Changelog] = sc.SourceOffset
		case sc.Changelog != nil:
			if off, ok := c.changelog[*sc.Changelog]; ok {
				offs[*sc.Changelog] = state.Offset(off)
			} else {
				offs[*sc.Changelog] = nil // nothing ever logged: no offset to keep
			}
		}
		if invariants.Enabled {
			checkStoreCommit(sc, offs, taken)
		}
		if err := sc.Store.Commit(offs); err != nil {
			failed = append(failed, StoreFailure{Store: sc.Store.Name(), Partition: sc.Partition, Err: err})
		}
	}
	stats.StoreCommit = time.Since(t2)
	if failed != nil {
		// Stores come in the order of the thread's task map, which Go
		// randomises: sort, so the message and Unwrap are the same each time.
		slices.SortStableFunc(failed, func(a, b StoreFailure) int {
			return cmp.Or(cmp.Compare(a.Store, b.Store), cmp.Compare(a.Partition, b.Partition))
		})
		return stats, &StoreCommitError{Failed: failed}
	}
	if invariants.Enabled {
		checkOverlaysEmpty("commit", stores)
	}
	return stats, nil
}

func (c *Committer) kafkaCommit(ctx context.Context, offsets []Offset, stats *CommitStats, t0 time.Time) error {
	err := c.Producer.Flush(ctx)
	// Records OnFailed sends may fail in turn; a few rounds settle it.
	for round := 0; err != nil && c.OnFailed != nil && round < 3; round++ {
		failed := c.Producer.TakeFailed()
		if failed == nil {
			break
		}
		if herr := c.OnFailed(ctx, failed); herr != nil {
			return herr
		}
		err = c.Producer.Flush(ctx)
	}
	if err != nil {
		return err
	}
	if err := failpoint.Hit(failpoint.AfterChangelogFlush); err != nil {
		return &Error{Op: "flush", Class: ErrAbortable, Err: err}
	}
	t1 := time.Now()
	stats.Flush = t1.Sub(t0)
	defer func() { stats.KafkaCommit = time.Since(t1) }()
	if c.EOS {
		err := c.Producer.CommitTransaction(ctx, offsets, c.groupMetadata())
		stats.Outcome = c.Producer.TakeOutcome()
		return err
	}
	if len(offsets) == 0 {
		return nil
	}
	return commitOffsets(ctx, c.Consumer, &c.ids, offsets, c.groupMetadata())
}

// groupMetadata is the member's current id and generation.
func (c *Committer) groupMetadata() GroupMetadata {
	g := GroupMetadata{Group: c.Group, Generation: -1, InstanceID: c.InstanceID}
	switch {
	case c.Member != nil:
		g.MemberID, g.Generation = c.Member()
	case c.Consumer != nil:
		g.MemberID, g.Generation = c.Consumer.GroupMetadata()
	}
	return g
}

// abort ends a failed epoch: the transaction is aborted and every overlay
// dropped. The caller rewinds its tasks to their committed offsets.
func (c *Committer) abort(ctx context.Context, stores []StoreCommit) {
	if c.EOS {
		// A failed abort (fenced, fatal) leaves the producer unusable; the
		// caller already holds the commit error that says so and rebuilds
		// the thread's clients.
		_ = c.Producer.AbortTransaction(ctx)
	} else {
		c.Producer.resetEpoch()
	}
	for _, sc := range stores {
		sc.Store.Rollback()
	}
	if invariants.Enabled {
		checkOverlaysEmpty("abort", stores)
	}
}

// Abort drops the epoch on the runtime's request (fencing, a task error).
func (c *Committer) Abort(ctx context.Context, stores []StoreCommit) { c.abort(ctx, stores) }
