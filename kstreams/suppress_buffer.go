package kstreams

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"

	"github.com/google/btree"

	"github.com/stoatflow/stoatflow/internal/storeformat"
)

// bufferedContext is the record context kept with a buffered update.
type bufferedContext = storeformat.RecordContext

// recordContextOf is the record context of r at the processor: Kafka's
// ProcessorRecordContext carries the timestamp and headers of the record
// as forwarded, with the topic, partition and offset of the input record.
// Outside of an input record (a punctuation) Kafka has no topic either; it
// is empty here and the offset and partition are -1.
func recordContextOf(task *Task, r Record) bufferedContext {
	rc := bufferedContext{Timestamp: r.Timestamp, Offset: -1, Partition: -1}
	if task.hasMD {
		rc.Topic, rc.Partition, rc.Offset = task.md.Topic, task.md.Partition, task.md.Offset
	}
	for _, h := range r.Headers {
		rc.Headers = append(rc.Headers, storeformat.RecordHeader{Key: h.Key, Value: h.Value})
	}
	return rc
}

func headersOf(rc bufferedContext) []Header {
	if len(rc.Headers) == 0 {
		return nil
	}
	out := make([]Header, len(rc.Headers))
	for i, h := range rc.Headers {
		out[i] = Header{Key: h.Key, Value: h.Value}
	}
	return out
}

// bufferEntry is one buffered key: it keeps the buffer time of its first
// update (Kafka's non-resetting semantics) and the value of its latest.
type bufferEntry struct {
	key   []byte
	time  int64
	value storeformat.BufferValue
}

func bufferLess(a, b *bufferEntry) bool {
	if a.time != b.time {
		return a.time < b.time
	}
	return bytes.Compare(a.key, b.key) < 0
}

// size is Kafka's computeRecordSize: buffer time, key and the value's
// estimate.
func (e *bufferEntry) size() int64 {
	return 8 + int64(len(e.key)) + e.value.MemoryEstimate()
}

// suppressBuffer is the suppression's buffer store, Kafka Streams'
// InMemoryTimeOrderedKeyValueChangeBuffer: buffered updates in time order
// (then serialized key), looked up by serialized key.
//
// The buffer lives in memory and is written to its store, which holds
// exactly the changelog's records (serialized key → version 3 buffer
// value), at Flush: every key that changed since the last flush is written,
// or deleted if it left the buffer, and logged alike. The store is
// transactional like every store: what a flush wrote commits with the
// epoch, an aborted epoch drops it, and a task that is rebuilt (after an
// abort, or a restart and a restore) reloads the buffer from the store, so
// it holds exactly the committed buffer and nothing of an aborted epoch is
// ever emitted again from it.
type suppressBuffer struct {
	storeBase
	inner  KeyValueBytesStore
	task   *Task
	loaded bool

	index    map[string]*bufferEntry
	sorted   *btree.BTreeG[*bufferEntry]
	memBytes int64
	minTime  int64
	dirty    javaHashSet
}

func newSuppressBuffer(base storeBase, inner KeyValueBytesStore, task *Task) *suppressBuffer {
	return &suppressBuffer{storeBase: base, inner: inner, task: task, index: map[string]*bufferEntry{},
		sorted: btree.NewG(32, bufferLess), minTime: maxInt64, dirty: newJavaHashSet()}
}

const maxInt64 = 1<<63 - 1

// load rebuilds the buffer from its store, once per task.
func (b *suppressBuffer) load() error {
	if b.loaded {
		return nil
	}
	it, err := b.inner.Range(nil, nil)
	if err != nil {
		return fmt.Errorf("kstreams: store %s: %w", b.name, err)
	}
	defer it.Close()
	for it.Next() {
		v, t, err := storeformat.SplitBufferValue(it.Value())
		if err != nil {
			return fmt.Errorf("kstreams: store %s: key %x: %w; the buffer holds only Kafka Streams' version 3 format", b.name, it.Key(), err)
		}
		b.cleanPut(t, append([]byte{}, it.Key()...), v)
	}
	if err := it.Err(); err != nil {
		return fmt.Errorf("kstreams: store %s: %w", b.name, err)
	}
	b.loaded = true
	return nil
}

func (b *suppressBuffer) numRecords() int { return len(b.index) }

// put buffers an update: a key already buffered keeps its place and the
// value it had before it was buffered (the prior value).
func (b *suppressBuffer) put(time int64, key any, c Change, rc bufferedContext) error {
	kb, err := b.keyBytes(key)
	if err != nil {
		return err
	}
	if kb == nil {
		return fmt.Errorf("kstreams: store %s: a null key cannot be buffered", b.name)
	}
	newB, err := b.valueBytes(c.New)
	if err != nil {
		return err
	}
	oldB, err := b.valueBytes(c.Old)
	if err != nil {
		return err
	}
	prior := oldB
	if e := b.index[string(kb)]; e != nil {
		prior = e.value.Prior
	}
	b.cleanPut(time, kb, storeformat.BufferValue{Prior: prior, Old: oldB, New: newB, Context: rc})
	b.dirty.add(kb)
	return nil
}

// priorValue is what a suppressed table's value getter reads for a
// buffered key (Kafka's priorValueForBuffered): the value the key had
// before its first buffered update, which may be nil (absent); buffered is
// false when the key is not in the buffer and the getter reads through to
// the parent table.
func (b *suppressBuffer) priorValue(key any) (value any, buffered bool, err error) {
	kb, err := b.keyBytes(key)
	if err != nil {
		return nil, false, err
	}
	e := b.index[string(kb)]
	if e == nil {
		return nil, false, nil
	}
	v, err := b.deserialize(e.value.Prior)
	return v, true, err
}

func (b *suppressBuffer) valueBytes(v any) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	vb, err := b.val.SerializeAny(b.topic, v)
	if err != nil {
		return nil, fmt.Errorf("kstreams: store %s: value: %w", b.name, err)
	}
	return vb, nil
}

// cleanPut is Kafka's cleanPut: a new key goes in at its time; a buffered
// one keeps its time and takes the new value.
func (b *suppressBuffer) cleanPut(time int64, kb []byte, v storeformat.BufferValue) {
	if e := b.index[string(kb)]; e != nil {
		b.memBytes -= e.size()
		e.value = v
		b.memBytes += e.size()
		return
	}
	e := &bufferEntry{key: kb, time: time, value: v}
	b.index[string(kb)] = e
	b.sorted.ReplaceOrInsert(e)
	b.minTime = min(b.minTime, time)
	b.memBytes += e.size()
}

// evictWhile hands the oldest buffered update to emit, then drops it, for
// as long as more returns true (Kafka's evictWhile: emit sees the update
// while it is still buffered).
func (b *suppressBuffer) evictWhile(more func() bool, emit func(key any, c Change, rc bufferedContext) error) error {
	for more() {
		e, ok := b.sorted.Min()
		if !ok {
			return nil
		}
		key, err := b.key.DeserializeAny(b.topic, e.key)
		if err != nil {
			return fmt.Errorf("kstreams: store %s: key: %w", b.name, err)
		}
		c := Change{}
		if c.New, err = b.deserialize(e.value.New); err != nil {
			return err
		}
		if c.Old, err = b.deserialize(e.value.Old); err != nil {
			return err
		}
		if err := emit(key, c, e.value.Context); err != nil {
			return err
		}
		b.sorted.Delete(e)
		delete(b.index, string(e.key))
		b.dirty.add(e.key)
		b.memBytes -= e.size()
		b.minTime = maxInt64
		if next, ok := b.sorted.Min(); ok {
			b.minTime = next.time
		}
	}
	return nil
}

func (b *suppressBuffer) deserialize(vb []byte) (any, error) {
	if vb == nil {
		return nil, nil
	}
	v, err := b.val.DeserializeAny(b.topic, vb)
	if err != nil {
		return nil, fmt.Errorf("kstreams: store %s: value: %w", b.name, err)
	}
	return v, nil
}

// Flush writes every key changed since the last flush to the store and its
// changelog: the buffered value, or a tombstone for a key that left the
// buffer. Keys go in the order Kafka Streams' HashSet of dirty keys
// iterates them, so both write the same changelog. The changelog records
// carry the header v=3 and, as Kafka Streams gives them none, the
// producer's wall-clock timestamp.
func (b *suppressBuffer) Flush() error {
	keys := b.dirty.drain()
	for _, k := range keys {
		e := b.index[string(k)]
		if e == nil {
			if _, err := b.inner.Delete(k); err != nil {
				return err
			}
			if err := b.send(k, nil, nil); err != nil {
				return err
			}
			continue
		}
		v := storeformat.AppendBufferValue(nil, e.value, e.time)
		if err := b.inner.Put(k, v); err != nil {
			return err
		}
		if err := b.send(k, v, []Header{{Key: storeformat.BufferFormatHeader, Value: []byte{storeformat.BufferFormatV3}}}); err != nil {
			return err
		}
	}
	return nil
}

func (b *suppressBuffer) send(key, value []byte, headers []Header) error {
	if b.log == nil {
		return nil
	}
	t := b.task
	return t.out.Send(ProducerRecord{Topic: b.topic, Partition: t.id.Partition, PartitionKey: key, Key: key, Value: value,
		Timestamp: t.wallClock(), Headers: headers})
}

// javaHashSet keeps keys in the order java.util.HashSet<Bytes> iterates
// them: by bucket (the spread Arrays.hashCode masked by the table size),
// then by insertion within a bucket. The table starts at 16 buckets,
// doubles past a load factor of 0.75 or when a bucket of a table under 64
// buckets grows past 8 keys, and keeps its size when cleared, as HashMap
// does. (Buckets HashMap turns into trees, at 9 colliding keys in a table
// of 64 or more, may iterate in another order.)
type javaHashSet struct {
	buckets int
	keys    [][]byte
	hashes  []uint32
	has     map[string]bool
	counts  map[uint32]int
}

func newJavaHashSet() javaHashSet {
	return javaHashSet{buckets: 16, has: map[string]bool{}, counts: map[uint32]int{}}
}

func javaBytesHash(b []byte) uint32 {
	h := int32(1)
	for _, x := range b {
		h = 31*h + int32(int8(x))
	}
	u := uint32(h)
	return u ^ u>>16
}

func (s *javaHashSet) add(k []byte) {
	if s.has[string(k)] {
		return
	}
	h := javaBytesHash(k)
	s.has[string(k)] = true
	s.keys = append(s.keys, k)
	s.hashes = append(s.hashes, h)
	bucket := h & uint32(s.buckets-1)
	s.counts[bucket]++
	if s.counts[bucket] > 8 && s.buckets < 64 {
		s.grow()
	}
	if len(s.keys) > s.buckets*3/4 {
		s.grow()
	}
}

func (s *javaHashSet) grow() {
	s.buckets *= 2
	clear(s.counts)
	for _, h := range s.hashes {
		s.counts[h&uint32(s.buckets-1)]++
	}
}

// drain returns the keys in iteration order and empties the set.
func (s *javaHashSet) drain() [][]byte {
	if len(s.keys) == 0 {
		return nil
	}
	mask := uint32(s.buckets - 1)
	order := make([]int, len(s.keys))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(s.hashes[a]&mask, s.hashes[b]&mask) })
	out := make([][]byte, len(order))
	for i, j := range order {
		out[i] = s.keys[j]
	}
	s.keys, s.hashes = s.keys[:0], s.hashes[:0]
	clear(s.has)
	clear(s.counts)
	return out
}
