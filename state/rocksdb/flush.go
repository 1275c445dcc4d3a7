package rocksdb

import (
	"strings"
	"sync/atomic"
	"time"

	"github.com/linxGnu/grocksdb"

	"github.com/stoatflow/stoatflow/state"
)

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
	policy    state.FlushPolicy
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
	return k != state.PositionKey && !strings.HasPrefix(k, state.MetaKeyPrefix) && !strings.HasPrefix(k, dropMarkerPrefix)
}

// initDurability reads the offsets on disk at open: all of them durable.
func (b *rocksBase) initDurability(p state.FlushPolicy) error {
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
func (b *rocksBase) recordLocked(cb *state.Batch, entries int64, now time.Time) error {
	d := &b.dur
	if entries == 0 {
		return nil
	}
	before := d.latest
	after := make(map[string]int64, len(before)+len(cb.Offsets))
	if !cb.ClearOffsets {
		for k, o := range before {
			after[k] = o
		}
	}
	advance := false
	for tp, off := range cb.Offsets {
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

// DurableLag implements state.Durable.
func (b *rocksBase) DurableLag(now time.Time) state.DurableLag {
	l := state.DurableLag{Records: b.dur.lagRecords.Load(), Flushes: b.dur.flushes.Load()}
	if s := b.dur.lagSince.Load(); s != 0 {
		l.Age = max(time.Duration(now.UnixNano()-s), 0)
	}
	return l
}

// MaybeFlush implements state.Durable.
func (b *rocksBase) MaybeFlush(now time.Time) error {
	s := b.dur.lagSince.Load()
	if s == 0 && b.dur.lagRecords.Load() == 0 {
		return nil
	}
	b.writerMu.Lock()
	defer b.writerMu.Unlock()
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.mu.closed {
		return state.ErrClosed
	}
	return b.checkLocked(now)
}
