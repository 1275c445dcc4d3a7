package streams

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/kstreams"
)

// ErrInternalNamesDiffer is returned by Start when the application's
// existing internal topics are not the ones its topology uses: the
// topology's generated names differ from those of the run (of Kafka
// Streams or StoatFlow) that created them.
var ErrInternalNamesDiffer = errors.New("streams: the topology's internal topics differ from the application's existing ones")

// groupProtocols are the assignor protocols StoatFlow's main consumers
// offer in the application's classic group: Kafka Streams' own, then the
// range protocol of earlier StoatFlow releases (groupBalancers).
var groupProtocols = []string{streamProtocol, kgo.RangeBalancer().ProtocolName()}

// foreignMembersPoll is how often a thread looks again at a group that
// still holds members of another assignor's protocol, and
// foreignMembersReport how often it says again in the log that it waits.
const (
	foreignMembersPoll   = 500 * time.Millisecond
	foreignMembersReport = 30 * time.Second
)

// awaitForeignMembers waits, before the main consumer joins, while the
// application's group holds members that joined with another assignor's
// protocol: a Kafka Streams instance (protocol "stream") that was closed,
// as Kafka Streams closes without leaving the group, or killed stays a
// member until its session.timeout.ms passes, and the coordinator refuses
// a member whose protocols have none in common with the group's
// (INCONSISTENT_GROUP_PROTOCOL). Joining then only fails over and over;
// waiting says what for. It returns when the group has no such member
// (empty, unknown, or of StoatFlow's protocol), when the group cannot be
// described (the join then says why), or when ctx ends.
func (t *streamThread) awaitForeignMembers(ctx context.Context) error {
	defer t.doing("waiting for the group's members of another assignor to leave")()
	adm := kadm.NewClient(t.restorer)
	group := t.s.cfg.ApplicationID
	began := time.Now()
	var reported time.Time
	for {
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		gs, err := adm.DescribeGroups(dctx, group)
		cancel()
		if ctx.Err() != nil {
			return fmt.Errorf("streams: waiting for group %s to lose its members of another assignor: %w", group, context.Cause(ctx))
		}
		if err != nil {
			t.log.Debug("describing the group before joining it", "group", group, "err", err)
			return nil
		}
		g, ok := gs[group]
		if !ok || g.Err != nil || !foreignProtocol(g) {
			if !reported.IsZero() {
				t.log.Info("the group's members of another assignor are gone; joining", "group", group,
					"waited", time.Since(began).Round(time.Millisecond))
			}
			return nil
		}
		if reported.IsZero() || time.Since(reported) >= foreignMembersReport {
			reported = time.Now()
			t.log.Warn("waiting before joining the group: it still has members of another assignor's protocol, "+
				"which the coordinator does not let StoatFlow's join beside; a Kafka Streams instance that was closed "+
				"or killed stays a member until its session.timeout.ms passes (stop every instance of the application "+
				"before a cutover)", "group", group, "group_protocol", g.Protocol, "stoatflow_protocols", groupProtocols,
				"state", g.State, "members", describeMembers(g), "waited", time.Since(began).Round(time.Second))
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("streams: waiting for group %s to lose its members of protocol %s: %w", group, g.Protocol, context.Cause(ctx))
		case <-time.After(foreignMembersPoll):
		}
	}
}

// foreignProtocol reports whether g is a classic consumer group with
// members whose chosen protocol is not StoatFlow's.
func foreignProtocol(g kadm.DescribedGroup) bool {
	return len(g.Members) > 0 && g.ProtocolType == "consumer" && g.Protocol != "" && !slices.Contains(groupProtocols, g.Protocol)
}

// describeMembers names a group's members by client id and host.
func describeMembers(g kadm.DescribedGroup) string {
	parts := make([]string, 0, len(g.Members))
	for _, m := range g.Members {
		parts = append(parts, m.ClientID+"@"+strings.TrimPrefix(m.ClientHost, "/"))
	}
	return strings.Join(parts, ", ")
}

// checkInternalNames compares the internal topics the topology needs with
// the changelog and repartition topics of the application that exist
// already, before any is created. A needed topic missing while others of
// the application exist that the topology does not use is how a topology
// whose generated names differ from the previous run's shows: a store
// would start empty beside the changelog holding its state, and records
// in flight would stay in the old repartition topic. That stops the start,
// before anything is consumed, with both lists. A missing topic alone (a
// new application, a store added), an unused one alone (a store removed)
// or both for an application that never committed offsets is no such
// sign.
func checkInternalNames(ctx context.Context, admin *kadm.Client, appID string, needed []kstreams.InternalTopic) error {
	md, err := admin.Metadata(ctx)
	if err != nil {
		// The creation that follows reports an unreachable broker.
		return nil
	}
	need := map[string]bool{}
	for _, it := range needed {
		need[it.Name] = true
	}
	var missing, unused []string
	for name := range need {
		if _, ok := md.Topics[name]; !ok {
			missing = append(missing, name)
		}
	}
	for name := range md.Topics {
		if strings.HasPrefix(name, appID+"-") && !need[name] &&
			(strings.HasSuffix(name, "-changelog") || strings.HasSuffix(name, "-repartition")) {
			unused = append(unused, name)
		}
	}
	if len(missing) == 0 || len(unused) == 0 {
		return nil
	}
	// Only an application that has run before (its group committed
	// offsets) has topics to take over: another application whose id
	// merely starts with this one's and a dash does not count.
	offs, err := admin.FetchOffsets(ctx, appID)
	if err != nil || len(offs) == 0 {
		return nil
	}
	slices.Sort(missing)
	slices.Sort(unused)
	return fmt.Errorf("%w: it needs %s, which do not exist, and does not use %s, which do: "+
		"compare the topology's describe() with the one that created them (sidecar describe) and name the "+
		"operators whose generated names differ (Named, Materialized.As, Grouped.As), or reset the application",
		ErrInternalNamesDiffer, strings.Join(missing, ", "), strings.Join(unused, ", "))
}
