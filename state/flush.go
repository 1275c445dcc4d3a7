package state

import (
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/linxGnu/grocksdb"
)

// FlushPolicy bounds how far a RocksDB store's durable offsets may trail its
// committed ones. RocksDB runs without a write-ahead log, so what survives a
// crash is the last memtable flush: the offsets and data written by commits
// since then are replayed from the changelog. After each commit (and each
// restore batch) the store flushes its memtables, all column families in
// one atomic flush, when a bound is passed. A zero field sets no bound;
// the zero policy flushes only when RocksDB does (a full write buffer).
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
// flush policy act between commits.
type Durable interface {
	// DurableLag returns the store's durable lag as of now.
	DurableLag(now time.Time) DurableLag
	// MaybeFlush flushes the store when its policy's time bound has passed
	// since its last commit; cheap when it has not.
	MaybeFlush(now time.Time) error
}

// flushPoint is one applied batch whose offsets-family entries may still be
// only in a memtable.
type flushPoint struct {
	entries int64            // entries the batch wrote into the offsets family
	offsets map[string]int64 // every changelog offset after the batch
	at      int64            // unix nanoseconds of the batch
	advance bool             // an offset moved past the one before the batch
}

// durability tracks which batches a RocksDB store has on disk. No WAL and
// atomic flush mean that after a crash the database holds exactly the
// batches up to the last completed flush. RocksDB 7.8's C API reports no
// flush events, but the offsets family's memtables tell: each batch writes
// a known number of entries there, a batch lands whole in one memtable, and
// a flush empties whole memtables. So if the memtables hold n entries, the
// batches not durable are the newest ones whose entries add up to n, and
// every older batch, whoever flushed it (the policy, a full write buffer,
// a flush of another column family, which atomic flush extends to all of
// them), is durable.
//
// Fields are guarded by rocksBase.writerMu except the atomics, which
// DurableLag reads from any goroutine.
type durability struct {
	policy    FlushPolicy
	unflushed []flushPoint
	inMem     int64 // entries of unflushed
	durable   map[string]int64
	latest    map[string]int64

	lagRecords atomic.Int64
	lagSince   atomic.Int64 // unix nanoseconds; 0: nothing waits
	flushes    atomic.Int64
}

// isOffsetKey reports whether an offsets-family key is a changelog
// partition's offset rather than the position or a store-internal value.
func isOffsetKey(k string) bool {
	return k != positionKey && !strings.HasPrefix(k, "stoatflow.") && !strings.HasPrefix(k, dropMarkerPrefix)
}

// initDurability reads the offsets on disk at open: all of them durable.
func (b *rocksBase) initDurability(p FlushPolicy) error {
	b.dur.policy = p
	b.dur.durable = map[string]int64{}
	b.dur.latest = map[string]int64{}
	it := b.db.NewIteratorCF(b.ro, b.offsets)
	defer it.Close()
	for it.SeekToFirst(); it.Valid(); it.Next() {
		k, v := string(it.Key().Data()), it.Value().Data()
		if isOffsetKey(k) && len(v) == 8 {
			o := int64(beUint64(v))
			b.dur.durable[k], b.dur.latest[k] = o, o
		}
	}
	return b.classify("open", it.Err())
}

func beUint64(v []byte) uint64 {
	return uint64(v[0])<<56 | uint64(v[1])<<48 | uint64(v[2])<<40 | uint64(v[3])<<32 |
		uint64(v[4])<<24 | uint64(v[5])<<16 | uint64(v[6])<<8 | uint64(v[7])
}

// memEntries returns the entries of the offsets family's memtables, the
// active one and those waiting for a flush.
func (b *rocksBase) memEntries() (active, imm int64) {
	a, _ := b.db.GetIntPropertyCF("rocksdb.num-entries-active-mem-table", b.offsets)
	i, _ := b.db.GetIntPropertyCF("rocksdb.num-entries-imm-mem-tables", b.offsets)
	return int64(a), int64(i)
}

// recordLocked notes a batch just written (entries offsets-family entries)
// and applies the flush policy. The caller holds writerMu and the read
// lock.
func (b *rocksBase) recordLocked(cb *commitBatch, entries int64, now time.Time) error {
	d := &b.dur
	if entries == 0 {
		return nil
	}
	before := d.latest
	after := make(map[string]int64, len(before)+len(cb.offsets))
	if !cb.clearOffsets {
		for k, o := range before {
			after[k] = o
		}
	}
	advance := false
	for tp, off := range cb.offsets {
		k := tp.String()
		if off == nil {
			delete(after, k)
			continue
		}
		after[k] = *off
		if o, ok := before[k]; !ok || *off > o {
			advance = true
		}
	}
	d.latest = after
	d.unflushed = append(d.unflushed, flushPoint{entries: entries, offsets: after, at: now.UnixNano(), advance: advance})
	d.inMem += entries
	return b.checkLocked(now)
}

// checkLocked retires the batches a flush made durable, updates the lag
// and flushes when the policy says so.
func (b *rocksBase) checkLocked(now time.Time) error {
	lag, since, imm := b.retireLocked()
	pol := b.dur.policy
	hard := pol.MaxLagRecords > 0 && lag > pol.MaxLagRecords
	soft := pol.MaxLagRecords > 0 && lag > pol.MaxLagRecords/2
	aged := pol.MaxLag > 0 && since != 0 && now.UnixNano()-since > int64(pol.MaxLag)
	switch {
	case hard:
		// The background flush started at half the bound has not caught
		// up: wait for one, so that the lag is back to 0 before the commit
		// returns and a crash never replays more than the bound plus one
		// batch.
		if err := b.flushLocked(true); err != nil {
			return err
		}
		b.retireLocked()
	case (soft || aged) && imm == 0:
		// Not waiting: the flush runs on RocksDB's background thread while
		// the stream thread goes on; its batches count as durable once it
		// is done. One at a time: while a flush is in progress (imm > 0,
		// whoever started it) another would only write a small file.
		return b.flushLocked(false)
	}
	return nil
}

// retireLocked drops the batches that are on disk from the unflushed list
// and publishes the lag. It returns the lag in offsets, the time of the
// oldest batch not durable that moved an offset (0 if none) and the
// entries of the offsets family's memtables waiting for a flush.
func (b *rocksBase) retireLocked() (lag, since, imm int64) {
	d := &b.dur
	active, imm := b.memEntries()
	for len(d.unflushed) > 0 && d.inMem > active+imm {
		p := d.unflushed[0]
		d.unflushed[0] = flushPoint{}
		d.unflushed = d.unflushed[1:]
		d.inMem -= p.entries
		d.durable = p.offsets
	}
	if len(d.unflushed) == 0 {
		d.unflushed = nil // let the backing array go
	}
	for k, o := range d.latest {
		if do, ok := d.durable[k]; ok {
			lag = max(lag, o-do)
		} else {
			lag = max(lag, o+1)
		}
	}
	for _, p := range d.unflushed {
		if p.advance {
			since = p.at
			break
		}
	}
	d.lagRecords.Store(lag)
	d.lagSince.Store(since)
	return lag, since, imm
}

// flushLocked flushes every column family of the store in one atomic
// flush.
func (b *rocksBase) flushLocked(wait bool) error {
	cfs := make([]*grocksdb.ColumnFamilyHandle, 0, len(b.mu.segs)+2)
	cfs = append(cfs, b.offsets)
	if b.defaultCF != nil {
		cfs = append(cfs, b.defaultCF)
	}
	for _, cf := range b.mu.segs {
		if cf != b.defaultCF {
			cfs = append(cfs, cf)
		}
	}
	if err := atomicFlush(b.db, cfs, wait); err != nil {
		return storeErr(b.name, "flush", err)
	}
	b.dur.flushes.Add(1)
	return nil
}

// durableLag implements Durable.DurableLag for the store's RocksDB base.
func (b *rocksBase) durableLag(now time.Time) DurableLag {
	l := DurableLag{Records: b.dur.lagRecords.Load(), Flushes: b.dur.flushes.Load()}
	if s := b.dur.lagSince.Load(); s != 0 {
		l.Age = max(time.Duration(now.UnixNano()-s), 0)
	}
	return l
}

// maybeFlush implements Durable.MaybeFlush.
func (b *rocksBase) maybeFlush(now time.Time) error {
	s := b.dur.lagSince.Load()
	if s == 0 && b.dur.lagRecords.Load() == 0 {
		return nil
	}
	b.writerMu.Lock()
	defer b.writerMu.Unlock()
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.mu.closed {
		return ErrClosed
	}
	return b.checkLocked(now)
}

// durableOf returns the RocksDB base under c, if any.
func durableOf(c *core) (*rocksBase, bool) {
	b, ok := c.base.(*rocksBase)
	return b, ok
}

func lagOf(c *core, now time.Time) DurableLag {
	if b, ok := durableOf(c); ok {
		return b.durableLag(now)
	}
	return DurableLag{}
}

func maybeFlushOf(c *core, now time.Time) error {
	if c.closed.Load() {
		return ErrClosed
	}
	if b, ok := durableOf(c); ok {
		return b.maybeFlush(now)
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
