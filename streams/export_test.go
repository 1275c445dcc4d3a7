package streams

import (
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
)

// WithStandbyBatchHook runs f on the stream thread before each standby
// batch reaches its store; an error stops the thread there, the batch
// unwritten: a standby stopped in the middle of its reads.
func WithStandbyBatchHook(f func(task kstreams.TaskID, store string) error) Option {
	return func(o *options) { o.standbyBatch = f }
}

// StandbyStores returns the standby store partitions named name that s
// hosts.
func StandbyStores(s *KafkaStreams, name string) []LocalStore { return s.standbyStores(name) }

// WithClock gives the instance the clock its state directory's task
// directories are dated and aged by.
func WithClock(now func() time.Time) Option {
	return func(o *options) { o.now = now }
}

// CleanRemovedTasks runs the state directory's cleaner once, whatever the
// instance's state.
func CleanRemovedTasks(s *KafkaStreams) { s.cleanRemovedTasks() }

// TaskDirHeld reports whether a thread of s (or its cleaner) holds the
// task directory named task.
func TaskDirHeld(s *KafkaStreams, task string) bool { return s.dir.TaskOwner(task) != nil }

// TopologyDescriptionToPush is the description a stream thread's member
// pushes when its streams group asks for it; nil when none is pushed.
var TopologyDescriptionToPush = topologyDescriptionToPush

// JavaStringCompare is Java's String.compareTo.
var JavaStringCompare = javaStringCompare
