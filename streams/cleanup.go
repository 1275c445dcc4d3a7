package streams

import (
	"errors"
)

// ErrRunning: CleanUp on an instance that is running.
var ErrRunning = errors.New("streams: cannot clean up while running; call CleanUp before Start or after Close")

// CleanUp deletes this instance's local state, as Kafka Streams' cleanUp
// does: every task's stores and the global stores under
// <state.dir>/<application.id>; the process id stays. The next Start
// restores every store from its changelog. It is allowed before Start and
// after Close (or a fatal error) only, and fails while another process
// holds the state directory.
func (s *KafkaStreams) CleanUp() error {
	switch s.State() {
	case Created, NotRunning, Error:
	default:
		return ErrRunning
	}
	s.mu.Lock()
	running := s.mu.starting != nil
	s.mu.Unlock()
	if running {
		return ErrRunning
	}
	dir, err := s.openStateDir()
	if err != nil {
		return err
	}
	return dir.Clean()
}
