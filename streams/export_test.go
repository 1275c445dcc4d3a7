package streams

import "github.com/stoatflow/stoatflow/kstreams"

// WithStandbyBatchHook runs f on the stream thread before each standby
// batch reaches its store; an error stops the thread there, the batch
// unwritten: a standby stopped in the middle of its reads.
func WithStandbyBatchHook(f func(task kstreams.TaskID, store string) error) Option {
	return func(o *options) { o.standbyBatch = f }
}

// StandbyStores returns the standby store partitions named name that s
// hosts.
func StandbyStores(s *KafkaStreams, name string) []LocalStore { return s.standbyStores(name) }
