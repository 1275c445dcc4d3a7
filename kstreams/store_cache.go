package kstreams

import (
	"container/list"

	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// storeCache is Kafka Streams' record cache for one store, used when
// caching is on (statestore.cache.max.bytes > 0 and the store asks for it):
// writes wait in the cache as dirty entries, reads see them, and a flush (at
// commit, or when the budget forces an eviction of a dirty entry) writes the
// dirty entries to the store and its changelog and forwards them downstream
// in the order of their last writes. Flushed entries stay in the cache as
// clean entries until evicted (least recently used first), and reads see
// them even after the store itself has expired them, as in Kafka. An entry
// absent both before and after (a session created and merged away between
// two flushes) is neither written nor forwarded.
//
// Entry sizes are estimates (key + value + a fixed overhead), so evictions
// under memory pressure need not happen at the same records as in Kafka.
type storeCache struct {
	entries map[string]*list.Element // of *cacheEntry
	// keys indexes entries by serialized record key, for session lookups.
	keys   map[string]map[string]*cacheEntry
	lru    *list.List // front: most recently used
	seq    uint64
	budget *cacheBudget
	// forward, set by the processor owning the store, sends a flushed entry
	// downstream.
	forward func(e *cacheEntry) error
	// flushFn writes and forwards the dirty entries; set by the store view.
	flushFn func(evicted *cacheEntry) error
}

// cacheBudget is the bytes the caches of one task may hold.
type cacheBudget struct {
	used, max int64
}

const cacheEntryOverhead = 64

type cacheEntry struct {
	k       string
	dirty   bool
	seq     uint64
	keyVal  any          // the record key as the processor saw it
	kb      []byte       // serialized key
	start   int64        // window stores
	win     serde.Window // session stores
	value   any          // the value as the processor saw it; nil deletes
	old     any          // at a flush: the value the store held before it
	ts      int64        // timestamp of the value (timestamped stores)
	ctxTs   int64        // timestamp of the record that wrote it
	headers []Header
	// origin is where the record that wrote it came from (hasOrigin false
	// outside of an input record): a flush forwards the entry with it, as
	// Kafka Streams restores the entry's record context.
	origin    RecordMetadata
	hasOrigin bool
	size      int64
}

func newStoreCache(b *cacheBudget) *storeCache {
	return &storeCache{entries: map[string]*list.Element{}, keys: map[string]map[string]*cacheEntry{}, lru: list.New(), budget: b}
}

func (c *storeCache) byKey(kb []byte) map[string]*cacheEntry {
	m, ok := c.keys[string(kb)]
	if !ok {
		m = map[string]*cacheEntry{}
		c.keys[string(kb)] = m
	}
	return m
}

// get returns the entry under k and marks it recently used.
func (c *storeCache) get(k string) (*cacheEntry, bool) {
	el, ok := c.entries[k]
	if !ok {
		return nil, false
	}
	c.lru.MoveToFront(el)
	return el.Value.(*cacheEntry), true
}

// put stores e under k, dirty (a write) or clean (a read filling the cache),
// and evicts least recently used entries while the budget is exceeded.
func (c *storeCache) put(k string, e *cacheEntry, dirty bool, valueLen int) error {
	e.k, e.dirty = k, dirty
	if dirty {
		c.seq++
		e.seq = c.seq
	}
	e.size = int64(len(k)+valueLen) + cacheEntryOverhead
	if el, ok := c.entries[k]; ok {
		c.budget.used -= el.Value.(*cacheEntry).size
		el.Value = e
		c.lru.MoveToFront(el)
	} else {
		c.entries[k] = c.lru.PushFront(e)
	}
	c.byKey(e.kb)[k] = e
	c.budget.used += e.size
	for c.budget.used > c.budget.max && c.lru.Len() > 1 {
		el := c.lru.Back()
		old := el.Value.(*cacheEntry)
		c.remove(old)
		if old.dirty && c.flushFn != nil {
			if err := c.flushFn(old); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *storeCache) remove(e *cacheEntry) {
	if el, ok := c.entries[e.k]; ok && el.Value == e {
		c.lru.Remove(el)
		delete(c.entries, e.k)
		c.budget.used -= e.size
		m := c.keys[string(e.kb)]
		delete(m, e.k)
		if len(m) == 0 {
			delete(c.keys, string(e.kb))
		}
	}
}

// dirty returns the dirty entries, an evicted one first, then the others in
// the order of their last write, and marks them clean; deletions leave the
// cache.
func (c *storeCache) drainDirty(evicted *cacheEntry) []*cacheEntry {
	var out []*cacheEntry
	if evicted != nil {
		out = append(out, evicted)
		evicted.dirty = false
	}
	var rest []*cacheEntry
	for el := c.lru.Front(); el != nil; el = el.Next() {
		if e := el.Value.(*cacheEntry); e.dirty {
			rest = append(rest, e)
		}
	}
	sortBySeq(rest)
	for _, e := range rest {
		e.dirty = false
		if e.value == nil {
			c.remove(e)
		}
	}
	return append(out, rest...)
}

func sortBySeq(es []*cacheEntry) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j].seq < es[j-1].seq; j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

// Caching reports whether the store holds writes in a cache until the next
// flush; its processor then forwards updates at flush time, not at write time.
func (s *storeBase) Caching() bool { return s.cache != nil }

// onFlush sets what a flush does with each entry after writing it: the
// owning processor forwards it downstream.
func (s *storeBase) onFlush(fn func(e *cacheEntry) error) {
	if s.cache != nil {
		s.cache.forward = fn
	}
}

// setupFlush installs the store's write step: write returns whether the
// entry existed before or exists now (only then is it written and forwarded).
func (s *storeBase) setupFlush(write func(e *cacheEntry) (bool, error)) {
	if s.cache == nil {
		return
	}
	c := s.cache
	c.flushFn = func(evicted *cacheEntry) error {
		prev := s.now()
		defer s.setNow(prev)
		if s.origin != nil {
			prevOrigin, prevHas := s.origin()
			defer s.setOrigin(prevOrigin, prevHas)
		}
		for _, e := range c.drainDirty(evicted) {
			s.setNow(e.ctxTs)
			if s.origin != nil {
				s.setOrigin(e.origin, e.hasOrigin)
			}
			ok, err := write(e)
			if err != nil {
				return err
			}
			if ok && c.forward != nil {
				if err := c.forward(e); err != nil {
					return err
				}
			}
		}
		return nil
	}
}

// Flush writes the store's dirty cache entries and forwards them; a no-op
// without caching.
func (s *storeBase) Flush() error {
	if s.cache == nil || s.cache.flushFn == nil {
		return nil
	}
	return s.cache.flushFn(nil)
}
