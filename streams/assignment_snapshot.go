package streams

import (
	"slices"
	"strconv"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/assignment"
	"github.com/stoatflow/stoatflow/internal/taskassign"
)

// AssignmentSnapshot is one placement a StoatFlow group leader computed,
// with what it computed it from: the group's members as their
// subscriptions describe them, the tasks with their partitions, the
// stateful tasks' changelog end offset sums and the assignor's settings.
// WithAssignmentSnapshots hands each to a function: to keep for a report
// of a placement that surprises, or to replay the same group through
// another leader (StoatFlow's tests replay them through Kafka Streams'
// own). Rack-aware placement also weighs the partitions' replica racks,
// which a snapshot does not hold.
type AssignmentSnapshot struct {
	NumStandbyReplicas         int      `json:"numStandby"`
	MaxWarmupReplicas          int      `json:"maxWarmup"`
	AcceptableRecoveryLag      int64    `json:"acceptableLag"`
	ProbingRebalanceIntervalMs int64    `json:"probingMs"`
	RackAwareAssignmentTags    []string `json:"tags,omitempty"`
	RackAwareStrategy          string   `json:"strategy,omitempty"` // "" for none
	// TaskAssignor is task.assignor.class when it names Kafka Streams'
	// StickyTaskAssignor, "" for the default HighAvailabilityTaskAssignor.
	TaskAssignor string `json:"assignor,omitempty"`
	// Tasks are every task's input partitions, "topic:partition";
	// EndOffsets the stateful tasks' changelog end offset sums.
	Tasks      map[string][]string `json:"tasks"`
	EndOffsets map[string]int64    `json:"endOffsets"`
	// Leader is the leader's process id: its client gets the probing
	// rebalance's deadline.
	Leader  string                     `json:"leader"`
	Clients []AssignmentSnapshotClient `json:"clients"`
	// Placement is each client's active and standby (warm-ups included)
	// tasks, by process id; Probing whether a probing rebalance follows.
	Placement map[string]AssignmentSnapshotPlacement `json:"placement"`
	Probing   bool                                   `json:"probing"`
}

// AssignmentSnapshotClient is one instance of the group: its process id,
// client tags and members (one per stream thread).
type AssignmentSnapshotClient struct {
	ProcessID string                       `json:"id"`
	Tags      map[string]string            `json:"tags,omitempty"`
	Consumers []AssignmentSnapshotConsumer `json:"consumers"`
}

// AssignmentSnapshotConsumer is one member: its partitions owned, offset
// sums reported and client.rack.
type AssignmentSnapshotConsumer struct {
	MemberID   string           `json:"id"`
	Owned      []string         `json:"owned,omitempty"`
	OffsetSums map[string]int64 `json:"sums,omitempty"`
	Rack       string           `json:"rack,omitempty"`
}

// AssignmentSnapshotPlacement is one client's tasks.
type AssignmentSnapshotPlacement struct {
	Active  []string `json:"active"`
	Standby []string `json:"standby"`
}

// WithAssignmentSnapshots hands f every placement the instance computes as
// its group's leader, from the stream thread's group goroutine: f must
// not block.
func WithAssignmentSnapshots(f func(AssignmentSnapshot)) Option {
	return func(o *options) { o.snapshots = f }
}

// snapshot describes the leader round's inputs and the placement of list.
func (r *leaderRound) snapshot(g *groupTasks, ends map[assignment.TaskID]int64, cfg taskassign.Config, list []*taskassign.ClientState, probing bool) AssignmentSnapshot {
	s := r.a.s
	tp := func(p assignment.TopicPartition) string { return p.Topic + ":" + strconv.Itoa(int(p.Partition)) }
	ids := func(ts []assignment.TaskID) []string {
		out := make([]string, 0, len(ts))
		for _, t := range ts {
			out = append(out, t.String())
		}
		slices.Sort(out)
		return out
	}
	snap := AssignmentSnapshot{
		NumStandbyReplicas: cfg.NumStandbyReplicas, MaxWarmupReplicas: cfg.MaxWarmupReplicas,
		AcceptableRecoveryLag: cfg.AcceptableRecoveryLag, ProbingRebalanceIntervalMs: s.cfg.ProbingRebalanceInterval.Milliseconds(),
		RackAwareAssignmentTags: slices.Clone(cfg.RackAwareAssignmentTags),
		Tasks:                   map[string][]string{}, EndOffsets: map[string]int64{},
		Placement: map[string]AssignmentSnapshotPlacement{}, Probing: probing,
	}
	if cfg.RackAwareAssignmentStrategy != taskassign.RackAwareStrategyNone {
		snap.RackAwareStrategy = cfg.RackAwareAssignmentStrategy
	}
	if s.cfg.TaskAssignor == compat.TaskAssignorSticky {
		snap.TaskAssignor = "org.apache.kafka.streams.processor.assignment.assignors.StickyTaskAssignor"
	}
	for id, tps := range g.partitions {
		for _, p := range tps {
			snap.Tasks[id.String()] = append(snap.Tasks[id.String()], tp(p))
		}
	}
	for _, id := range g.stateful {
		snap.EndOffsets[id.String()] = ends[id]
	}
	if r.a.m != nil {
		snap.Leader = r.a.m.pid.String()
	}
	// The members in the order a Kafka Streams leader meets them, which
	// is the order its HashMap of clients is filled in: where two process
	// ids fall in one bucket of that map, the sticky assignor's ties
	// follow it.
	byPID := map[assignment.ProcessID]*AssignmentSnapshotClient{}
	var order []assignment.ProcessID
	for _, i := range r.membersAsMet() {
		md := r.decoded[i]
		pid := md.Info.ProcessID
		c := byPID[pid]
		if c == nil {
			c = &AssignmentSnapshotClient{ProcessID: pid.String()}
			for _, t := range md.Info.ClientTags {
				if c.Tags == nil {
					c.Tags = map[string]string{}
				}
				c.Tags[t.Key] = t.Value
			}
			byPID[pid] = c
			order = append(order, pid)
		}
		m := AssignmentSnapshotConsumer{MemberID: r.members[i].MemberID, Rack: md.Rack}
		for _, p := range md.OwnedPartitions {
			m.Owned = append(m.Owned, tp(p))
		}
		for _, o := range md.Info.OffsetSums() {
			if m.OffsetSums == nil {
				m.OffsetSums = map[string]int64{}
			}
			m.OffsetSums[o.Task.String()] = o.OffsetSum
		}
		c.Consumers = append(c.Consumers, m)
	}
	for _, pid := range order {
		snap.Clients = append(snap.Clients, *byPID[pid])
	}
	for _, c := range list {
		snap.Placement[c.ProcessID().String()] = AssignmentSnapshotPlacement{Active: ids(c.ActiveTasks()), Standby: ids(c.StandbyTasks())}
	}
	return snap
}
