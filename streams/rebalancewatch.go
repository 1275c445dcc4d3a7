package streams

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
)

// A rebalance of a classic group completes only once every member has
// rejoined: a member that stopped without leaving the group (killed, or
// closed as a static member without leave-group) holds it until the
// coordinator removes it when its session times out. An instance waiting
// there sits in REBALANCING with nothing to show why; the rebalance
// watch says which members the group still holds, and that it waits.

// rebalanceWatchAfter is how long the group must have been rebalancing
// before the watch names its members; rebalanceWatchEvery is how often it
// looks, and says so again while the rebalance lasts.
var (
	rebalanceWatchAfter  = 5 * time.Second
	rebalanceWatchEvery  = time.Second
	rebalanceWatchRepeat = 30 * time.Second
)

// watchRebalances runs until ctx ends: while the instance is REBALANCING
// and the group has been preparing or completing a rebalance for
// rebalanceWatchAfter, it logs the group's members that are not this
// instance's, once and then every rebalanceWatchRepeat, and when the
// rebalance is over, how long it took.
//
// After an assignment it also fences the open transactions of processes
// the group no longer holds (fence.go), retrying every
// rebalanceWatchEvery until a round finds the group stable, for at most
// fenceAfterAssignment.
func (s *KafkaStreams) watchRebalances(ctx context.Context) {
	var since, reported, fenceUntil time.Time
	tick := time.NewTicker(rebalanceWatchEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.assigned:
			fenceUntil = time.Now().Add(fenceAfterAssignment)
			// Give the group's other members a moment to sync, so
			// that the first round finds the group stable.
			select {
			case <-ctx.Done():
				return
			case <-time.After(300 * time.Millisecond):
			}
		case <-tick.C:
		}
		if !fenceUntil.IsZero() {
			if via := s.runningThread(); via != nil {
				if _, done := s.fenceAbandoned(ctx, via.restorer, "an assignment"); done || time.Now().After(fenceUntil) {
					fenceUntil = time.Time{}
				}
			}
		}
		if st := s.State(); st != Rebalancing {
			if !reported.IsZero() {
				s.log.Info("the group's rebalance is over", "group", s.cfg.ApplicationID, "state", st.String(),
					"waited", time.Since(since).Round(time.Millisecond))
			}
			since, reported = time.Time{}, time.Time{}
			continue
		}
		g, ok := s.describeOwnGroup(ctx)
		if !ok {
			continue
		}
		if g.State != "PreparingRebalance" && g.State != "CompletingRebalance" {
			if !reported.IsZero() {
				s.log.Info("the group's rebalance is over", "group", g.Group, "state", g.State,
					"waited", time.Since(since).Round(time.Millisecond))
			}
			since, reported = time.Time{}, time.Time{}
			continue
		}
		now := time.Now()
		if since.IsZero() {
			since = now
		}
		if now.Sub(since) < rebalanceWatchAfter || (!reported.IsZero() && now.Sub(reported) < rebalanceWatchRepeat) {
			continue
		}
		reported = now
		others := s.otherMembers(g)
		if g.State == "CompletingRebalance" {
			s.log.Warn("the group's rebalance waits for its leader's assignment (every member has rejoined; the leader computes "+
				"and sends the assignment, reading the changelogs' end offsets first)",
				"group", g.Group, "waiting", now.Sub(since).Round(time.Second), "other_members", others)
			continue
		}
		s.log.Warn("the group's rebalance waits for every member to rejoin: a member that stopped without leaving the group "+
			"(killed, or a static member closed without stoatflow.shutdown.leave-group or Kafka Streams' LEAVE_GROUP) holds it "+
			"until the coordinator removes it, session.timeout.ms after its last heartbeat; a member that is alive and does not "+
			"rejoin holds it until max.poll.interval.ms after the rebalance began",
			"group", g.Group, "state", g.State, "waiting", now.Sub(since).Round(time.Second),
			"until", s.rebalanceWaitEnd(since, now), "other_members", others)
	}
}

// rebalanceWaitEnd is when a rebalance the watch saw begin at since ends
// at the latest, as the coordinator bounds it, once now is past the
// earlier bound: a member that stopped before it began is removed
// session.timeout.ms after its last heartbeat, and the members that have
// not rejoined max.poll.interval.ms (the rebalance timeout) after it
// began are left out of it. Both take the other members' timeouts to be
// this instance's, as they are for instances that share one .properties
// file.
func (s *KafkaStreams) rebalanceWaitEnd(since, now time.Time) time.Time {
	rebalance := since.Add(s.cfg.RebalanceTimeout())
	if session := since.Add(s.cfg.SessionTimeout()); session.Before(rebalance) && now.Before(session) {
		return ceilSecond(session)
	}
	return ceilSecond(rebalance)
}

// ceilSecond rounds t up to a whole second, for a bound a log line gives.
func ceilSecond(t time.Time) time.Time { return t.Add(time.Second - 1).Truncate(time.Second) }

// describeOwnGroup describes the application's group through a running
// thread's restore consumer.
func (s *KafkaStreams) describeOwnGroup(ctx context.Context) (kadm.DescribedGroup, bool) {
	via := s.runningThread()
	if via == nil {
		return kadm.DescribedGroup{}, false
	}
	dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	gs, err := kadm.NewClient(via.restorer).DescribeGroups(dctx, s.cfg.ApplicationID)
	if err != nil {
		return kadm.DescribedGroup{}, false
	}
	g, ok := gs[s.cfg.ApplicationID]
	return g, ok && g.Err == nil
}

// otherMembers names the group's members that are not this instance's
// threads: client id, group.instance.id when static, and host.
func (s *KafkaStreams) otherMembers(g kadm.DescribedGroup) string {
	own := s.cfg.EffectiveClientID(s.processID) + "-StreamThread-"
	var out []string
	for _, m := range g.Members {
		if strings.HasPrefix(m.ClientID, own) {
			continue
		}
		d := m.ClientID
		if m.InstanceID != nil {
			d += " (group.instance.id " + *m.InstanceID + ")"
		}
		out = append(out, d+"@"+strings.TrimPrefix(m.ClientHost, "/"))
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}
