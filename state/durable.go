package state

import (
	"strconv"
	"time"
)

// FlushPolicy bounds how far a RocksDB store's durable offsets may trail its
// committed ones. RocksDB runs without a write-ahead log, so what survives a
// crash is the last memtable flush: the offsets and data written by commits
// since then are replayed from the changelog. After each commit (and each
// restore batch) the store flushes its memtables, all column families in
// one atomic flush, when a bound is passed. A zero field sets no bound;
// the zero policy flushes only when RocksDB does (a full write buffer).
// Package state/rocksdb applies it (rocksdb.Options.Flush).
type FlushPolicy struct {
	// MaxLagRecords bounds, in changelog offsets, how far a changelog
	// partition's durable offset may trail its committed one once a commit
	// returns: past half of it a flush starts in the background, past all
	// of it the commit waits for a flush. A crash then replays at most
	// MaxLagRecords plus the records of the batch being written. Under
	// exactly_once_v2 the offsets include one transaction marker per
	// commit, so the records replayed are a little fewer.
	MaxLagRecords int64
	// MaxLag: flush when the oldest commit that is not yet durable is older
	// than this. It is checked at commits and by MaybeFlush, which a stream
	// thread calls between commits, so that a store with no new records
	// still becomes durable.
	MaxLag time.Duration
}

// DurableLag is how far a store's durable offsets trail its committed ones.
type DurableLag struct {
	// Records is the largest difference, over the store's changelog
	// partitions, between the committed offset and the durable one: about
	// what a crash now would replay. A partition with no durable offset
	// counts from offset 0.
	Records int64
	// Age is how long the oldest commit that is not yet durable has been
	// committed; 0 when everything committed is durable.
	Age time.Duration
	// Flushes counts the flushes the policy requested since the store
	// opened (RocksDB's own flushes of full write buffers not included).
	Flushes int64
}

// Durable is implemented by the stores whose data survives a restart
// (RocksDB): the stream thread reads their lag for metrics and lets their
// flush policy act between commits. An Engine may implement it too; the
// stores over it then pass both calls on to it.
type Durable interface {
	// DurableLag returns the store's durable lag as of now.
	DurableLag(now time.Time) DurableLag
	// MaybeFlush flushes the store when its policy's time bound has passed
	// since its last commit; cheap when it has not.
	MaybeFlush(now time.Time) error
}

func lagOf(c *core, now time.Time) DurableLag {
	if d, ok := c.base.(Durable); ok {
		return d.DurableLag(now)
	}
	return DurableLag{}
}

func maybeFlushOf(c *core, now time.Time) error {
	if c.closed.Load() {
		return ErrClosed
	}
	if d, ok := c.base.(Durable); ok {
		return d.MaybeFlush(now)
	}
	return nil
}

// DurableLag implements Durable.
func (s *kvStore) DurableLag(now time.Time) DurableLag { return lagOf(s.c, now) }

// MaybeFlush implements Durable.
func (s *kvStore) MaybeFlush(now time.Time) error { return maybeFlushOf(s.c, now) }

// DurableLag implements Durable.
func (w *windowStore) DurableLag(now time.Time) DurableLag { return lagOf(w.s.c, now) }

// MaybeFlush implements Durable.
func (w *windowStore) MaybeFlush(now time.Time) error { return maybeFlushOf(w.s.c, now) }

// DurableLag implements Durable.
func (ss *sessionStore) DurableLag(now time.Time) DurableLag { return lagOf(ss.s.c, now) }

// MaybeFlush implements Durable.
func (ss *sessionStore) MaybeFlush(now time.Time) error { return maybeFlushOf(ss.s.c, now) }

// DurableLag implements Durable.
func (v *versionedStore) DurableLag(now time.Time) DurableLag { return lagOf(v.s.c, now) }

// MaybeFlush implements Durable.
func (v *versionedStore) MaybeFlush(now time.Time) error { return maybeFlushOf(v.s.c, now) }

// AsDurable returns s as a Durable when its data survives a restart.
func AsDurable(s Store) (Durable, bool) {
	if !s.Persistent() {
		return nil, false
	}
	d, ok := s.(Durable)
	return d, ok
}

// String renders a lag for logs.
func (l DurableLag) String() string {
	return strconv.FormatInt(l.Records, 10) + " offsets, " + l.Age.Round(time.Millisecond).String()
}
