package streams

import (
	"context"
	"fmt"
	"time"

	"github.com/stoatflow/stoatflow/compat"
)

// runCleaner is the state directory's cleaner, Kafka Streams'
// "<client.id>-CleanupThread": every state.cleanup.delay.ms, the first
// time one delay after Start, it deletes the directories of the tasks no
// thread of the instance has open, as an active task, a standby (warm-ups
// are standbys) or a task being opened or closed, and that were let go
// longer than the delay ago (cleanRemovedTasks). As in Kafka Streams, a
// run happens only while the instance is RUNNING, so a rebalance that
// moves a task back finds its directory.
func (s *KafkaStreams) runCleaner(ctx context.Context) {
	tick := time.NewTicker(s.cfg.StateCleanupDelay)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if s.State() == Running {
				s.cleanRemovedTasks()
			}
		}
	}
}

// cleanRemovedTasks is one run of the cleaner. The state directory holds
// each task directory while it decides on it and deletes it, so a thread
// that claims the task meanwhile waits for it (claimTask), and one that
// holds it keeps it. A task's offset sum goes before its directory, while
// the cleaner holds it, so no subscription reports state that is gone.
func (s *KafkaStreams) cleanRemovedTasks() {
	delay := s.cfg.StateCleanupDelay
	log := s.log.With("thread", "cleaner")
	err := s.dir.CleanRemovedTasks(s.now(), delay, func(task string, age time.Duration) {
		if id, ok := parseTaskDirName(task); ok {
			s.member.forgetTaskDir(wireTaskID(id))
		}
		log.Info(fmt.Sprintf("Deleting obsolete state directory %s for task %s as %dms has elapsed (cleanup delay is %dms).",
			task, task, age.Milliseconds(), delay.Milliseconds()))
	})
	if err != nil {
		log.Warn("Swallowed an error during deletion of obsolete state directories; the next run tries again", "err", err)
	}
}

// purgeOutdatedTaskDirs deletes, before anything reads the state
// directory, the task directories last modified longer than
// state.cleanup.dir.max.age.ms ago, as Kafka Streams 4.3's start does
// (KIP-1259): their tasks restore from their changelogs in full instead of
// resuming from stores that may hold keys whose tombstones the changelog
// has since dropped. At -1, the default, it deletes nothing; any other
// value, negative ones included, applies as in Kafka Streams. A directory
// it cannot delete fails Start, as it fails Kafka Streams' start.
func (s *KafkaStreams) purgeOutdatedTaskDirs() error {
	maxAge := s.cfg.StateCleanupDirMaxAge
	if maxAge == compat.StateCleanupDirMaxAgeDisabled {
		return nil
	}
	s.log.Debug("Start cleaning outdated directories")
	err := s.dir.PurgeOutdatedTasks(s.now(), maxAge, func(task string, age time.Duration) {
		s.log.Info(fmt.Sprintf("Deleting outdated state directory %s as %dms has elapsed from last update (max directory age is %dms).",
			task, age.Milliseconds(), maxAge.Milliseconds()))
	})
	if err != nil {
		return fmt.Errorf("streams: %s: %w", compat.StateCleanupDirMaxAgeMsConfig, err)
	}
	return nil
}
