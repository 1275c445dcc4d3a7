package rocksdb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/linxGnu/grocksdb"

	"github.com/stoatflow/stoatflow/state"
)

// ReadCommittedOffset reads the changelog offset of tp that the store
// database at path (state.KeyValueDir or state.SegmentedDir of its task
// directory) holds on disk, without opening the store: the database is
// opened read-only, which takes no lock on it, and closed before the call
// returns. It is what a restart would find, and what Kafka Streams reads
// from a task's .checkpoint file for a task it does not run. ok is false
// when there is no database at path or it holds no offset of tp. An owner
// that has the store open may hold newer offsets in memory.
func ReadCommittedOffset(path string, tp state.TopicPartition) (offset int64, ok bool, err error) {
	if _, err := os.Stat(filepath.Join(path, "CURRENT")); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return 0, false, nil
		}
		return 0, false, err
	}
	opts := grocksdb.NewDefaultOptions()
	defer opts.Destroy()
	opts.SetInfoLogLevel(grocksdb.WarnInfoLogLevel)
	db, handles, err := grocksdb.OpenDbForReadOnlyColumnFamilies(opts, path,
		[]string{defaultCF, offsetsCF}, []*grocksdb.Options{opts, opts}, false)
	if err != nil {
		return 0, false, fmt.Errorf("rocksdb: reading the offsets of %s: %w", path, err)
	}
	defer func() {
		for _, h := range handles {
			h.Destroy()
		}
		db.Close()
	}()
	ro := grocksdb.NewDefaultReadOptions()
	defer ro.Destroy()
	sl, err := db.GetCF(ro, handles[1], []byte(tp.String()))
	if err != nil {
		return 0, false, fmt.Errorf("rocksdb: reading the offset of %s in %s: %w", tp, path, err)
	}
	defer sl.Free()
	if !sl.Exists() {
		return 0, false, nil
	}
	if len(sl.Data()) != 8 {
		return 0, false, &state.CorruptionError{Path: path, Err: fmt.Errorf("offset of %s has %d bytes, want 8", tp, len(sl.Data()))}
	}
	return int64(binary.BigEndian.Uint64(sl.Data())), true, nil
}
