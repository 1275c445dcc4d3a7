package kstreams

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/stoatflow/stoatflow/internal/storeformat"
)

// joinBuffer is the grace-period buffer of a stream–versioned-table join,
// Kafka Streams' RocksDBTimeOrderedKeyValueBuffer (store <join>-Buffer):
// stream records wait in time order until stream time has passed them by
// the grace period, so that table updates arriving late are joined.
//
// Its store and changelog hold Kafka's records: the key is the prefixed
// time-first window key (0x00, timestamp, serialized key, sequence number), the
// value a buffer value (the record's value as new value, its record
// context) followed by a zero buffer time; an evicted record is deleted
// and tombstoned. The changelog records carry no headers and, as Kafka
// Streams gives them none, the producer's wall-clock timestamp.
//
// Stream time is the highest timestamp ever buffered (Kafka keeps it in
// the store): it is written to the store under a key no record key can
// be, committed with the buffer, and not logged. A store restored from
// its changelog alone takes the highest buffered timestamp instead.
type joinBuffer struct {
	storeBase
	inner KeyValueBytesStore
	task  *Task

	loaded     bool
	streamTime int64
	seq        uint32
}

// joinBufferTimeKey is where the buffer keeps its stream time: one byte,
// shorter than any record key (1 + 8 + key + 4 bytes), sorting after every
// one (a record key starts with the time-first prefix 0x00).
var joinBufferTimeKey = []byte{0xFF}

// timeFirstPrefix starts a key of Kafka's PrefixedWindowKeySchemas'
// time-first schema; bufferKeyOverhead is what such a key adds to the
// serialized key: the prefix, the timestamp and the sequence number.
const (
	timeFirstPrefix   = 0x00
	bufferKeyOverhead = 1 + 8 + 4
)

func newJoinBuffer(base storeBase, inner KeyValueBytesStore, task *Task) *joinBuffer {
	return &joinBuffer{storeBase: base, inner: inner, task: task, streamTime: -1} // Kafka's NO_TIMESTAMP
}

func (b *joinBuffer) load() error {
	if b.loaded {
		return nil
	}
	v, err := b.inner.Get(joinBufferTimeKey)
	if err != nil {
		return fmt.Errorf("kstreams: store %s: %w", b.name, err)
	}
	if len(v) == 8 {
		b.streamTime = int64(binary.BigEndian.Uint64(v))
	} else if err := b.scan(math.MaxInt64, func(ts int64, _, _ []byte) error {
		b.streamTime = max(b.streamTime, ts)
		return nil
	}); err != nil {
		return err
	}
	b.loaded = true
	return nil
}

// scan calls fn for the buffered records with timestamp up to limit, in
// time order (then serialized key, then sequence number).
func (b *joinBuffer) scan(limit int64, fn func(ts int64, storeKey, value []byte) error) error {
	it, err := b.inner.Range(nil, nil)
	if err != nil {
		return fmt.Errorf("kstreams: store %s: %w", b.name, err)
	}
	defer it.Close()
	for it.Next() {
		k := it.Key()
		if len(k) < bufferKeyOverhead {
			continue // the stream time
		}
		ts := int64(binary.BigEndian.Uint64(k[1:]))
		if ts > limit {
			break
		}
		if err := fn(ts, append([]byte{}, k...), append([]byte{}, it.Value()...)); err != nil {
			return err
		}
	}
	if err := it.Err(); err != nil {
		return fmt.Errorf("kstreams: store %s: %w", b.name, err)
	}
	return nil
}

// put buffers r unless it is already older than stream time minus grace
// (then it is joined at once: put returns false).
func (b *joinBuffer) put(grace int64, r Record, rc bufferedContext) (bool, error) {
	if b.streamTime-grace > r.Timestamp {
		return false, nil
	}
	kb, err := b.keyBytes(r.Key)
	if err != nil {
		return false, err
	}
	vb, err := b.val.SerializeAny(b.topic, r.Value)
	if err != nil {
		return false, fmt.Errorf("kstreams: store %s: value: %w", b.name, err)
	}
	b.seq = (b.seq + 1) & 0x7FFFFFFF
	key := binary.BigEndian.AppendUint64(append(make([]byte, 0, bufferKeyOverhead+len(kb)), timeFirstPrefix), uint64(r.Timestamp))
	key = binary.BigEndian.AppendUint32(append(key, kb...), b.seq)
	value := storeformat.AppendBufferValue(nil, storeformat.BufferValue{New: vb, Context: rc}, 0)
	if err := b.inner.Put(key, value); err != nil {
		return false, err
	}
	if r.Timestamp > b.streamTime {
		b.streamTime = r.Timestamp
		if err := b.inner.Put(joinBufferTimeKey, binary.BigEndian.AppendUint64(nil, uint64(r.Timestamp))); err != nil {
			return false, err
		}
	}
	return true, b.send(key, value)
}

// evict hands every record at least grace older than stream time to emit,
// oldest first, and drops it.
func (b *joinBuffer) evict(grace int64, emit func(r Record, rc bufferedContext) error) error {
	return b.scan(b.streamTime-grace, func(_ int64, key, value []byte) error {
		v, _, err := storeformat.SplitBufferValue(value)
		if err != nil {
			return fmt.Errorf("kstreams: store %s: key %x: %w", b.name, key, err)
		}
		k, err := b.key.DeserializeAny(b.topic, key[9:len(key)-4])
		if err != nil {
			return fmt.Errorf("kstreams: store %s: key: %w", b.name, err)
		}
		val, err := b.val.DeserializeAny(b.topic, v.New)
		if err != nil {
			return fmt.Errorf("kstreams: store %s: value: %w", b.name, err)
		}
		if err := emit(Record{Key: k, Value: val, Timestamp: v.Context.Timestamp, Headers: headersOf(v.Context)}, v.Context); err != nil {
			return err
		}
		if _, err := b.inner.Delete(key); err != nil {
			return err
		}
		return b.send(key, nil)
	})
}

func (b *joinBuffer) send(key, value []byte) error {
	if b.log == nil {
		return nil
	}
	t := b.task
	return t.out.Send(ProducerRecord{Topic: b.topic, Partition: t.id.Partition, PartitionKey: key, Key: key, Value: value,
		Timestamp: t.wallClock()})
}
