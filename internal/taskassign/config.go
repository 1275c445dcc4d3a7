package taskassign

import (
	"errors"
	"fmt"
)

var (
	// ErrInvalid marks input the assignor cannot work with: a client
	// without capacity, a stateful task without a lag, a process id twice.
	ErrInvalid = errors.New("taskassign: invalid input")
	// ErrUnsupported marks input this package does not compute: a task
	// of a named topology.
	ErrUnsupported = errors.New("taskassign: unsupported")
)

// Rack-aware assignment strategies (rack.aware.assignment.strategy).
const (
	RackAwareStrategyNone               = "none"
	RackAwareStrategyMinTraffic         = "min_traffic"
	RackAwareStrategyBalanceSubtopology = "balance_subtopology"
)

// Config is the part of Kafka Streams' configuration that steers task
// placement (Kafka's AssignmentConfigs). DefaultConfig gives Kafka
// Streams 4.4's defaults.
type Config struct {
	// NumStandbyReplicas is num.standby.replicas: hot standbys per stateful
	// task, on clients other than the active's. Default 0.
	NumStandbyReplicas int
	// MaxWarmupReplicas is max.warmup.replicas: warm-up replicas placed at
	// once in the whole group, on clients a task should move to once they
	// have caught up. Default 2, at least 1.
	MaxWarmupReplicas int
	// AcceptableRecoveryLag is acceptable.recovery.lag: a client whose lag
	// on a task is at most this is caught up and may take the task as
	// active. Default 10000; math.MaxInt64 makes every client caught up.
	AcceptableRecoveryLag int64
	// ProbingRebalanceIntervalMs is probing.rebalance.interval.ms: how long
	// after an assignment with pending movements the leader's client asks
	// for another rebalance. Default 600000, at least 60000.
	ProbingRebalanceIntervalMs int64
	// RackAwareAssignmentTags is rack.aware.assignment.tags: the client
	// tags (client.tag.*) over which standbys are spread. Empty (the
	// default) places standbys on the least loaded clients.
	RackAwareAssignmentTags []string
	// RackAwareAssignmentStrategy is rack.aware.assignment.strategy: none
	// (the default), min_traffic (the least cross-rack traffic) or
	// balance_subtopology (the same, keeping each sub-topology's tasks
	// spread over the clients).
	RackAwareAssignmentStrategy string
	// RackAwareTrafficCost and RackAwareNonOverlapCost are
	// rack.aware.assignment.traffic_cost and .non_overlap_cost: what a
	// stateful task's partition outside its client's rack costs, and what
	// moving the task away from the client the balanced placement chose
	// costs. nil keeps Kafka Streams' defaults, 10 and 1. They matter only
	// to rack-aware strategies; stateless tasks always cost 1 and 0.
	RackAwareTrafficCost    *int
	RackAwareNonOverlapCost *int
}

// DefaultConfig returns Kafka Streams 4.4's defaults.
func DefaultConfig() Config {
	return Config{
		MaxWarmupReplicas:           2,
		AcceptableRecoveryLag:       10000,
		ProbingRebalanceIntervalMs:  600000,
		RackAwareAssignmentStrategy: RackAwareStrategyNone,
	}
}

// Validate reports values Kafka Streams would refuse, in its words.
func (c Config) Validate() error {
	switch {
	case c.NumStandbyReplicas < 0:
		return fmt.Errorf("%w: Invalid value %d for configuration num.standby.replicas", ErrInvalid, c.NumStandbyReplicas)
	case c.MaxWarmupReplicas < 1:
		return fmt.Errorf("%w: Invalid value %d for configuration max.warmup.replicas: Value must be at least 1", ErrInvalid, c.MaxWarmupReplicas)
	case c.AcceptableRecoveryLag < 0:
		return fmt.Errorf("%w: Invalid value %d for configuration acceptable.recovery.lag: Value must be at least 0", ErrInvalid, c.AcceptableRecoveryLag)
	case c.ProbingRebalanceIntervalMs < 60000:
		return fmt.Errorf("%w: Invalid value %d for configuration probing.rebalance.interval.ms: Value must be at least 60000", ErrInvalid, c.ProbingRebalanceIntervalMs)
	}
	switch c.RackAwareAssignmentStrategy {
	case "", RackAwareStrategyNone, RackAwareStrategyMinTraffic, RackAwareStrategyBalanceSubtopology:
		return nil
	default:
		return fmt.Errorf("%w: Invalid value %s for configuration rack.aware.assignment.strategy: String must be one of: none, min_traffic, balance_subtopology", ErrInvalid, c.RackAwareAssignmentStrategy)
	}
}
