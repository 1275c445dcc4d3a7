package streams

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/assignment"
	"github.com/stoatflow/stoatflow/internal/streamsgroup"
)

// Fencing abandoned transactions.
//
// Under exactly_once_v2 an instance that dies mid-transaction leaves it
// open: the partitions it wrote (changelogs, repartition topics, output)
// are unreadable to read_committed readers past it, and the group's offset
// commits it sent are unstable, until the transaction coordinator aborts
// it once transaction.timeout.ms has passed. Kafka Streams waits that out;
// so the new owner of a dead instance's task restores and consumes nothing
// for up to the transaction timeout after the group noticed the death
// (session.timeout.ms). A transactional id of the application names its
// process (<application.id>-<process id>-<thread>), and a process that is
// no longer a member of the group has had its tasks taken away: nothing
// it could still commit is wanted (were it alive, its next commit would be
// refused for its old generation). So when a thread finds itself waiting
// on an open transaction, it fences every open transaction of a process
// the group no longer holds, as that process's restart would: an
// InitProducerId for the transactional id, on which the coordinator
// aborts the transaction at once.

// fenceEvery is how often an instance fences at most: every thread that
// waits asks, and one round serves them all.
const fenceEvery = time.Second

// fenceWait bounds one round of fencing: the listing, the group's
// members, and one InitProducerId per abandoned transaction.
const fenceWait = 5 * time.Second

// fenceAfterAssignment is how long after an assignment the rebalance
// watch tries to fence, while the group is not stable.
const fenceAfterAssignment = 15 * time.Second

// fencer rate-limits an instance's fencing rounds.
type fencer struct {
	mu   sync.Mutex
	last time.Time
}

// abandonedTxn is an open transaction of the application whose process is
// not a member of the group.
type abandonedTxn struct {
	txnID      string
	producerID int64
	process    assignment.ProcessID
}

// fenceAbandoned fences the open transactions of the application's
// processes that are not members of the group (see above), asking the
// brokers through cl. It does nothing unless the instance runs
// exactly_once_v2, at most once every fenceEvery per instance and one
// round at a time; errors
// are logged, not returned: fencing only shortens a wait that ends anyway.
// It returns how many transactions it fenced, and whether it looked: a
// round skipped for the rate limit, an error, or a group that is not
// stable did not.
func (s *KafkaStreams) fenceAbandoned(ctx context.Context, cl *kgo.Client, why string) (fenced int, done bool) {
	if !s.cfg.ExactlyOnce() {
		return 0, true
	}
	// A round under way serves a thread that asks meanwhile: the thread
	// does not wait for it.
	if !s.fence.mu.TryLock() {
		return 0, false
	}
	defer s.fence.mu.Unlock()
	if time.Since(s.fence.last) < fenceEvery {
		return 0, false
	}
	s.fence.last = time.Now()
	ctx, cancel := context.WithTimeout(ctx, fenceWait)
	defer cancel()
	txns, err := s.abandonedTxns(ctx, cl)
	if err != nil {
		s.log.Debug("fencing abandoned transactions: not now", "err", err)
		return 0, false
	}
	timeout, _ := cl.OptValue(kgo.TransactionTimeout).(time.Duration)
	for _, a := range txns {
		if err := fenceTxnID(ctx, cl, a.txnID, timeout); err != nil {
			s.log.Warn("could not fence the open transaction of a process that is no longer in the group; the broker aborts it after its transaction.timeout.ms",
				"transactional.id", a.txnID, "err", err)
			continue
		}
		fenced++
		s.log.Warn("fenced the open transaction of a process that is no longer in the group, so that its partitions and offsets are readable now "+
			"rather than after its transaction.timeout.ms", "transactional.id", a.txnID, "producer_id", a.producerID,
			"process", a.process.String(), "waiting_for", why)
	}
	return fenced, true
}

// abandonedTxns lists the application's open transactions whose process
// is not a member of the group. The transactions are listed before the
// members are read: a process that had a transaction open and is not in
// the group after it has left or been removed, while a process that joined
// after the listing is not in it. A group that is not stable (its
// members' subscriptions are described only then) or a member whose
// subscription is not Kafka Streams' is an error: nothing is fenced unless
// every live process is known.
func (s *KafkaStreams) abandonedTxns(ctx context.Context, cl *kgo.Client) ([]abandonedTxn, error) {
	adm := kadm.NewClient(cl)
	pattern := "^" + regexp.QuoteMeta(s.cfg.ApplicationID) + "-[0-9a-fA-F-]{36}-[0-9]+$"
	listed, err := adm.ListTransactionsByTxPattern(ctx, nil, []string{"Ongoing"}, pattern)
	if err != nil {
		return nil, fmt.Errorf("list transactions: %w", err)
	}
	var open []abandonedTxn
	for _, l := range listed.Sorted() {
		if l.State != "Ongoing" {
			continue
		}
		pid, ok := txnProcess(s.cfg.ApplicationID, l.TxnID)
		if !ok || pid.String() == s.processID {
			continue
		}
		open = append(open, abandonedTxn{txnID: l.TxnID, producerID: l.ProducerID, process: pid})
	}
	if len(open) == 0 {
		return nil, nil
	}
	var live map[assignment.ProcessID]bool
	if s.cfg.GroupProtocol == compat.GroupProtocolStreams {
		live, err = s.liveStreamsProcesses(ctx, cl)
	} else {
		live, err = s.liveProcesses(ctx, adm)
	}
	if err != nil {
		return nil, err
	}
	out := open[:0]
	for _, a := range open {
		if !live[a.process] {
			out = append(out, a)
		}
	}
	return out, nil
}

// liveProcesses reads the process ids of the group's members from their
// subscriptions.
func (s *KafkaStreams) liveProcesses(ctx context.Context, adm *kadm.Client) (map[assignment.ProcessID]bool, error) {
	groups, err := adm.DescribeGroups(ctx, s.cfg.ApplicationID)
	if err != nil {
		return nil, fmt.Errorf("describe group: %w", err)
	}
	g, ok := groups[s.cfg.ApplicationID]
	switch {
	case !ok:
		return nil, errors.New("describe group: no answer for the group")
	case g.Err != nil:
		return nil, fmt.Errorf("describe group: %w", g.Err)
	case g.State != "Stable":
		return nil, fmt.Errorf("group is %s, its members' subscriptions are described once it is Stable", g.State)
	}
	live := map[assignment.ProcessID]bool{}
	for _, m := range g.Members {
		c, ok := m.Join.AsConsumer()
		if !ok {
			return nil, fmt.Errorf("member %s: not a consumer protocol subscription", m.MemberID)
		}
		info, err := assignment.DecodeSubscriptionInfo(c.UserData)
		if err != nil {
			return nil, fmt.Errorf("member %s: %w", m.MemberID, err)
		}
		live[info.ProcessID] = true
	}
	if len(live) == 0 {
		return nil, errors.New("the group has no members")
	}
	return live, nil
}

// liveStreamsProcesses reads the process ids of a streams group's members
// (group.protocol=streams) from StreamsGroupDescribe, which names every
// member's process whatever the group's state.
func (s *KafkaStreams) liveStreamsProcesses(ctx context.Context, cl *kgo.Client) (map[assignment.ProcessID]bool, error) {
	g, err := streamsgroup.Describe(ctx, cl, s.cfg.ApplicationID)
	if err != nil {
		return nil, err
	}
	live := map[assignment.ProcessID]bool{}
	for _, m := range g.Members {
		pid, err := assignment.ParseProcessID(m.ProcessID)
		if err != nil {
			return nil, fmt.Errorf("member %s: process id: %w", m.MemberID, err)
		}
		live[pid] = true
	}
	if len(live) == 0 {
		return nil, errors.New("the group has no members")
	}
	return live, nil
}

// txnProcess parses <application.id>-<process id>-<thread> into its
// process id.
func txnProcess(app, txnID string) (assignment.ProcessID, bool) {
	rest, ok := strings.CutPrefix(txnID, app+"-")
	if !ok {
		return assignment.ProcessID{}, false
	}
	i := strings.LastIndexByte(rest, '-')
	if i < 0 {
		return assignment.ProcessID{}, false
	}
	if _, err := strconv.Atoi(rest[i+1:]); err != nil {
		return assignment.ProcessID{}, false
	}
	pid, err := assignment.ParseProcessID(rest[:i])
	if err != nil {
		return assignment.ProcessID{}, false
	}
	return pid, true
}

// fenceTxnID sends InitProducerId for txnID: the coordinator bumps the
// transactional id's epoch and aborts its open transaction. It answers
// CONCURRENT_TRANSACTIONS while the abort completes, which is retried
// until the context ends.
func fenceTxnID(ctx context.Context, cl *kgo.Client, txnID string, timeout time.Duration) error {
	if timeout <= 0 {
		timeout = time.Minute
	}
	for {
		req := kmsg.NewPtrInitProducerIDRequest()
		req.TransactionalID = &txnID
		req.TransactionTimeoutMillis = int32(timeout / time.Millisecond)
		req.ProducerID, req.ProducerEpoch = -1, -1
		resp, err := req.RequestWith(ctx, cl)
		if err == nil {
			err = kerr.ErrorForCode(resp.ErrorCode)
		}
		if err == nil {
			return nil
		}
		if !errors.Is(err, kerr.ConcurrentTransactions) && !errors.Is(err, kerr.CoordinatorLoadInProgress) &&
			!errors.Is(err, kerr.NotCoordinator) && !errors.Is(err, kerr.CoordinatorNotAvailable) {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last answer: %w)", ctx.Err(), err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
