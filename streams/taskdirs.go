package streams

import (
	"errors"
	"maps"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/stoatflow/stoatflow/internal/assignment"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state/rocksdb"
)

// scanTaskDirs finds the task directories an earlier process of this
// instance left in the state directory and records, for each stateful task
// of this topology among them, the sum of the changelog offsets its RocksDB
// stores hold on disk: Kafka Streams' StateDirectory.listNonEmptyTaskDirectories
// and the checkpoint files its TaskManager reads for tasks it does not run.
// Every subscription then reports them (groupMember.diskSums), so that the
// group's leader gives the instance back the tasks it has state for, or
// places their standbys here. The stores are read without being opened:
// nothing is locked or held open (rocksdb.ReadCommittedOffset). A store
// that cannot be read adds nothing, as Kafka Streams skips an unreadable
// checkpoint.
func (s *KafkaStreams) scanTaskDirs() {
	entries, err := os.ReadDir(s.dir.Path())
	if err != nil {
		s.log.Warn("listing the state directory's task directories; their offset sums are not reported", "dir", s.dir.Path(), "err", err)
		return
	}
	subs := s.topo.Subtopologies()
	found := map[assignment.TaskID]int64{}
	for _, e := range entries {
		id, ok := parseTaskDirName(e.Name())
		if !ok || !e.IsDir() || id.Subtopology >= len(subs) {
			continue
		}
		dir := filepath.Join(s.dir.Path(), e.Name())
		var sum int64
		has := false
		for _, spec := range subs[id.Subtopology].Stores {
			tp := s.storeChangelog(spec, id.Partition)
			if tp == nil || !s.storePersistent(spec) {
				continue
			}
			off, ok, err := rocksdb.ReadCommittedOffset(storePath(dir, spec), *tp)
			if err != nil {
				if !errors.Is(err, os.ErrNotExist) {
					s.log.Warn("reading a store's offset in a task directory; the store adds nothing to the task's offset sum",
						"task", id.String(), "store", spec.Name, "err", err)
				}
				continue
			}
			if !ok || off < 0 {
				continue
			}
			has = true
			sum = addSum(sum, off)
		}
		if has {
			found[wireTaskID(id)] = sum
		}
	}
	if len(found) == 0 {
		return
	}
	for id := range found {
		if s.dir.TaskOwner(taskDirName(id)) != nil {
			delete(found, id) // a thread has it open and reports it
		}
	}
	s.member.mu.Lock()
	maps.Copy(s.member.mu.onDisk, found)
	s.member.mu.Unlock()
	s.log.Info("found state of earlier runs in the state directory; the group's leader learns its offset sums", "tasks", len(found))
}

// parseTaskDirName reads a task directory's name, <sub-topology>_<partition>
// (state.TaskDirName).
func parseTaskDirName(name string) (kstreams.TaskID, bool) {
	a, b, ok := strings.Cut(name, "_")
	if !ok {
		return kstreams.TaskID{}, false
	}
	sub, err1 := strconv.Atoi(a)
	p, err2 := strconv.ParseInt(b, 10, 32)
	if err1 != nil || err2 != nil || sub < 0 || p < 0 || strconv.Itoa(sub) != a || strconv.FormatInt(p, 10) != b {
		return kstreams.TaskID{}, false
	}
	return kstreams.TaskID{Subtopology: sub, Partition: int32(p)}, true
}

// addSum adds an offset to an offset sum, pinned at math.MaxInt64 on
// overflow as Kafka Streams pins it.
func addSum(sum, off int64) int64 {
	if sum > math.MaxInt64-off {
		return math.MaxInt64
	}
	return sum + off
}
