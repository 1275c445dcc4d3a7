package streams

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/streamsgroup"
)

// ErrApplicationShutdown is the error of an instance that stopped because
// another instance of the application (or one of its own threads) answered
// a failure with ShutdownApplication.
var ErrApplicationShutdown = errors.New("streams: an instance of the application answered a failed stream thread " +
	"with SHUTDOWN_APPLICATION: every instance shuts down")

// shutdownMarker is the user data of a group member that asks every
// instance to shut down, and of every assignment the group's leader hands
// out while one asks, as Kafka Streams' subscription and assignment carry
// AssignorError.SHUTDOWN_REQUESTED.
var shutdownMarker = []byte("stoatflow:shutdown-application")

// shutdownAnswerWait bounds how long an instance that asked for the
// application's shutdown waits for the group to hand the request back
// before it stops on its own.
const shutdownAnswerWait = 2 * time.Minute

// shutdownRejoinEvery is how often the asking consumer rejoins while the
// request has no answer.
const shutdownRejoinEvery = 10 * time.Second

// appBalancer is the range assignor (the group protocol of StoatFlow
// releases before the stream protocol, still offered second so that a
// rolling upgrade keeps one group; see groupBalancers) with the
// shutdown request of SHUTDOWN_APPLICATION: a member of an instance that
// asks joins with shutdownMarker, and a leader that sees one gives every
// member an empty assignment carrying it, on which each instance shuts
// down.
type appBalancer struct {
	kgo.GroupBalancer
	s *KafkaStreams
	// stream is the same consumer's stream-protocol side, told when a
	// generation chose this protocol instead.
	stream *streamAssignor
}

func (b appBalancer) JoinGroupMetadata(interests []string, current map[string][]int32, generation int32) []byte {
	meta := b.GroupBalancer.JoinGroupMetadata(interests, current, generation)
	if !b.s.shutdownAsked.Load() {
		return meta
	}
	var m kmsg.ConsumerMemberMetadata
	if err := m.ReadFrom(meta); err != nil {
		return meta
	}
	m.UserData = shutdownMarker
	return m.AppendTo(nil)
}

func (b appBalancer) MemberBalancer(members []kmsg.JoinGroupResponseMember) (kgo.GroupMemberBalancer, map[string]struct{}, error) {
	inner, topics, err := b.GroupBalancer.MemberBalancer(members)
	if err != nil {
		return nil, nil, err
	}
	for _, m := range members {
		var md kmsg.ConsumerMemberMetadata
		if md.ReadFrom(m.ProtocolMetadata) == nil && bytes.Equal(md.UserData, shutdownMarker) {
			b.s.log.Warn("a member of the group asks every instance to shut down (SHUTDOWN_APPLICATION); assigning no partitions",
				"member", m.MemberID)
			return shutdownAll(members), topics, nil
		}
	}
	return inner, topics, nil
}

func (b appBalancer) ParseSyncAssignment(assignment []byte) (map[string][]int32, error) {
	if b.stream != nil {
		b.stream.forget()
	}
	var a kmsg.ConsumerMemberAssignment
	if a.ReadFrom(assignment) == nil && bytes.Equal(a.UserData, shutdownMarker) {
		b.s.shutdownByGroup()
		return map[string][]int32{}, nil
	}
	return b.GroupBalancer.ParseSyncAssignment(assignment)
}

// shutdownAll assigns every member nothing but the shutdown request.
type shutdownAll []kmsg.JoinGroupResponseMember

func (m shutdownAll) Balance(map[string]int32) kgo.IntoSyncAssignment { return m }

func (m shutdownAll) IntoSyncAssignment() []kmsg.SyncGroupRequestGroupAssignment {
	a := kmsg.ConsumerMemberAssignment{UserData: shutdownMarker}
	enc := a.AppendTo(nil)
	out := make([]kmsg.SyncGroupRequestGroupAssignment, 0, len(m))
	for _, member := range m {
		out = append(out, kmsg.SyncGroupRequestGroupAssignment{MemberID: member.MemberID, MemberAssignment: enc})
	}
	return out
}

// shutdownByGroup stops the instance once the group handed out the
// shutdown request: every instance ends in ERROR, as under Kafka Streams.
// It runs on franz-go's group goroutine of a stream thread's main consumer
// and does not wait: fail calls the state listener, which may call Close,
// which waits for that consumer to close. The instance's wait group owns
// the goroutine that fails it, so Done waits for it; the count is not zero
// meanwhile, as the thread counts in it until its consumer has closed.
func (s *KafkaStreams) shutdownByGroup() {
	s.shutdownOnce.Do(func() {
		close(s.shutdownAnswered)
		if s.shutdownAsked.Load() {
			return // requestApplicationShutdown stops the instance with its thread's error
		}
		s.log.Error("the application is shutting down: an instance answered a failed stream thread with SHUTDOWN_APPLICATION")
		s.wg.Go(func() { s.fail(ErrApplicationShutdown) })
	})
}

// requestApplicationShutdown is SHUTDOWN_APPLICATION for failed, a stream
// thread that stopped with err: this instance asks the group to shut every
// instance down through a consumer that takes the failed thread's place in
// the group only to ask (Kafka Streams asks through its other threads, and
// adds one for it when there is none); its join starts a rebalance, in
// which the instance's other threads ask too. The instance stops when the
// group hands the request back, or after shutdownAnswerWait; its error is
// err. The consumer's goroutine counts in the instance's wait group (the
// failed thread's goroutine, which calls this, still counts in it), so
// Done and Close wait for the consumer to have closed.
func (s *KafkaStreams) requestApplicationShutdown(ctx context.Context, failed *streamThread, err error) {
	s.mu.Lock()
	if s.mu.err == nil {
		s.mu.err = err
	}
	s.mu.Unlock()
	s.shutdownAsked.Store(true)
	s.log.Error("stream thread failed; asking every instance of the application to shut down (SHUTDOWN_APPLICATION)",
		"thread", failed.idx, "err", err)
	if s.cfg.GroupProtocol == compat.GroupProtocolStreams {
		s.wg.Go(func() {
			s.requestStreamsGroupShutdown(ctx, failed.idx)
			s.fail(err)
		})
		return
	}
	messenger, merr := s.shutdownMessenger(failed.idx)
	if merr != nil {
		s.log.Error("cannot ask the group to shut the application down; stopping this instance only", "err", merr)
		s.fail(err)
		return
	}
	s.wg.Go(func() {
		defer messenger.Close()
		// A join that found the group mid-rebalance, or a coordinator
		// that kept the old assignment, is tried again.
		retry := time.NewTicker(shutdownRejoinEvery)
		defer retry.Stop()
		deadline := time.After(shutdownAnswerWait)
		for {
			select {
			case <-s.shutdownAnswered:
			case <-ctx.Done():
			case <-deadline:
				s.log.Warn("the group did not hand the shutdown request back; stopping this instance", "waited", shutdownAnswerWait)
			case <-retry.C:
				s.log.Info("the shutdown request has no answer yet; rejoining the group with it")
				messenger.ForceRebalance()
				continue
			}
			s.fail(err)
			return
		}
	})
}

// shutdownMessenger is a main consumer under thread idx's client ids (and
// group.instance.id, so that it replaces the failed thread's static member
// at once) that joins the group only to carry the shutdown request: it
// never polls, and rejoins until the group hands the request back.
func (s *KafkaStreams) shutdownMessenger(idx int) (*kgo.Client, error) {
	opts, err := s.cfg.MainConsumerOptions(s.processID, idx)
	if err != nil {
		return nil, err
	}
	subscription, regex := s.topo.SourceIndex(s.cfg.ApplicationID).Subscription()
	if regex {
		opts = append(opts, kgo.ConsumeRegex())
	}
	// Under static membership the messenger takes the failed thread's
	// place, and a coordinator may hand it that member's assignment
	// without a rebalance; an assignment without the request makes it
	// rejoin at once, now as a known member whose metadata changed, which
	// starts one.
	rejoin := func(_ context.Context, cl *kgo.Client, _ map[string][]int32) {
		select {
		case <-s.shutdownAnswered:
		default:
			cl.ForceRebalance()
		}
	}
	opts = append(opts, kgo.ConsumeTopics(subscription...), groupBalancers(newStreamAssignor(s, nil)), kgo.OnPartitionsAssigned(rejoin))
	opts = append(opts, s.clientObservers(s.log, "shutdown-request-consumer")...)
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("streams: the consumer asking for the application's shutdown: %w", err)
	}
	return cl, nil
}

// requestStreamsGroupShutdown asks a streams group (group.protocol=streams)
// to shut every instance down: a member of this process joins with the
// shutdown flag, as a Kafka Streams thread's member sets it in its
// heartbeats, and heartbeats until the group reports SHUTDOWN_APPLICATION
// (which this instance's other threads see too), shutdownAnswerWait passes
// or ctx ends; then it leaves. The failed thread's own member has left the
// group by then.
func (s *KafkaStreams) requestStreamsGroupShutdown(ctx context.Context, idx int) {
	topo, err := StreamsGroupTopology(s.topo, s.cfg)
	if err != nil {
		s.log.Error("cannot ask the streams group to shut the application down; stopping this instance only", "err", err)
		return
	}
	m, err := streamsgroup.New(streamsgroup.Config{GroupID: s.cfg.ApplicationID, ProcessID: s.processID, Topology: topo,
		RebalanceTimeout: s.cfg.RebalanceTimeout(), RackID: s.cfg.MainConsumerRack()})
	if err != nil {
		s.log.Error("cannot ask the streams group to shut the application down; stopping this instance only", "err", err)
		return
	}
	m.RequestShutdown()
	opts, err := s.cfg.MainConsumerOptions(s.processID, idx)
	if err == nil {
		opts = append(opts, s.clientObservers(s.log, "shutdown-request-consumer")...)
	}
	var cl *kgo.Client
	if err == nil {
		cl, err = kgo.NewClient(opts...)
	}
	if err != nil {
		s.log.Error("cannot ask the streams group to shut the application down; stopping this instance only", "err", err)
		return
	}
	defer cl.Close()
	deadline := time.After(shutdownAnswerWait)
	for {
		hctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		res, err := m.Heartbeat(hctx, cl)
		cancel()
		wait := res.Next
		switch {
		case err == nil && res.Has(streamsgroup.StatusShutdownApplication):
			s.log.Info("the streams group reports SHUTDOWN_APPLICATION to its members")
			lctx, cancel := context.WithTimeout(s.abortCtx, 10*time.Second)
			if err := m.Leave(lctx, cl); err != nil {
				s.log.Debug("leaving the streams group after the shutdown request", "err", err)
			}
			cancel()
			return
		case errors.Is(err, streamsgroup.ErrFatal):
			s.log.Error("the streams group refused the shutdown request; stopping this instance only", "err", err)
			return
		case err != nil:
			s.log.Debug("heartbeat with the shutdown request failed; retrying", "err", err)
			wait = time.Second
		}
		select {
		case <-s.shutdownAnswered:
			return
		case <-ctx.Done():
			return
		case <-deadline:
			s.log.Warn("the streams group did not report the shutdown request; stopping this instance", "waited", shutdownAnswerWait)
			return
		case <-time.After(max(wait, 100*time.Millisecond)):
		}
	}
}
