package state

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strconv"
	"sync/atomic"

	"github.com/stoatflow/stoatflow/internal/invariants"
)

// IsolationLevel selects what a read-only view sees.
type IsolationLevel int

const (
	// ReadUncommitted sees the owner's uncommitted writes (the overlay) over
	// the committed data. It is Kafka Streams' default.
	ReadUncommitted IsolationLevel = iota
	// ReadCommitted sees committed data only.
	ReadCommitted
)

func (l IsolationLevel) String() string {
	switch l {
	case ReadUncommitted:
		return "READ_UNCOMMITTED"
	case ReadCommitted:
		return "READ_COMMITTED"
	}
	return "IsolationLevel(" + strconv.Itoa(int(l)) + ")"
}

// TopicPartition names a changelog partition.
type TopicPartition struct {
	Topic     string
	Partition int32
}

// String returns Kafka's TopicPartition.toString form, `<topic>-<partition>`,
// which is also the key of the partition's offset in the offsets column
// family.
func (tp TopicPartition) String() string {
	return tp.Topic + "-" + strconv.FormatInt(int64(tp.Partition), 10)
}

// Offset returns a pointer to o, for building Commit's offset map.
func Offset(o int64) *int64 { return &o }

// Store is what every state store offers the runtime.
type Store interface {
	// Name returns the store name.
	Name() string
	// Persistent reports whether the store keeps its data across restarts.
	Persistent() bool
	// Commit makes the overlay durable together with the changelog offsets,
	// atomically. Contract as Kafka's StateStore.commit: an empty (or nil)
	// map removes every committed offset; a nil value removes that
	// partition's offset. Call it only after the Kafka transaction committed.
	Commit(offsets map[TopicPartition]*int64) error
	// Rollback drops every uncommitted write.
	Rollback()
	// CommittedOffset returns the last changelog offset committed for tp;
	// ok is false when there is none (always, for in-memory stores).
	CommittedOffset(tp TopicPartition) (offset int64, ok bool, err error)
	// ApproximateNumUncommittedBytes returns the key and value bytes in the
	// overlay, each key counted once however often it was overwritten.
	ApproximateNumUncommittedBytes() int64
	// ApplyChangelog writes changelog records straight into the committed
	// data, together with tp's offset lastOffset, in one batch. Restore and
	// standby replicas use it.
	ApplyChangelog(records []ChangelogRecord, tp TopicPartition, lastOffset int64) error
	// Close releases the store; uncommitted writes are dropped. Safe to call
	// twice.
	Close() error
}

// ChangelogRecord is one record of a store's changelog topic, as consumed.
type ChangelogRecord struct {
	Key       []byte
	Value     []byte // nil: tombstone
	Timestamp int64
}

// Iterator walks key/value pairs. Key and Value are valid until the next
// call to Next; copy them to keep them. Always Close an iterator.
type Iterator interface {
	Next() bool
	Key() []byte
	Value() []byte
	Err() error
	Close() error
}

// Budget sums the uncommitted bytes of the stores that report to it, such as
// all stores of one stream thread. Reading the total is one atomic load.
type Budget struct {
	n atomic.Int64
}

// Add records a change of delta bytes.
func (b *Budget) Add(delta int64) {
	if b != nil && delta != 0 {
		n := b.n.Add(delta)
		if invariants.Enabled && n < 0 {
			invariants.Failf("state: uncommitted-bytes budget at %d after a change of %d: a store returned more than it added", n, delta)
		}
	}
}

// Total returns the current sum.
func (b *Budget) Total() int64 {
	if b == nil {
		return 0
	}
	return b.n.Load()
}

// Position is the IQ consistency position of a store: for each input topic
// partition, the highest offset whose effect the store holds.
type Position map[string]map[int32]int64

// Update raises topic-partition's offset to offset.
func (p Position) Update(topic string, partition int32, offset int64) {
	m := p[topic]
	if m == nil {
		m = map[int32]int64{}
		p[topic] = m
	}
	if cur, ok := m[partition]; !ok || offset > cur {
		m[partition] = offset
	}
}

// Merge raises p to include every offset of q.
func (p Position) Merge(q Position) {
	for t, parts := range q {
		for part, o := range parts {
			p.Update(t, part, o)
		}
	}
}

// Copy returns a deep copy.
func (p Position) Copy() Position {
	q := Position{}
	q.Merge(p)
	return q
}

// MarshalBinary encodes p in Kafka Streams' PositionSerde version 0: byte
// 0, int32 topic count, then per topic an int32 name length, the UTF-8
// name, an int32 partition count and int32 partition, int64 offset pairs;
// all big-endian. Topics and partitions are sorted so that equal positions
// encode equally. Kafka's serializer leaves zero padding after the data;
// this encoding has none (UnmarshalPosition accepts both).
func (p Position) MarshalBinary() ([]byte, error) {
	topics := make([]string, 0, len(p))
	for t := range p {
		topics = append(topics, t)
	}
	sort.Strings(topics)
	b := []byte{0}
	b = binary.BigEndian.AppendUint32(b, uint32(len(topics)))
	for _, t := range topics {
		b = binary.BigEndian.AppendUint32(b, uint32(len(t)))
		b = append(b, t...)
		parts := make([]int32, 0, len(p[t]))
		for part := range p[t] {
			parts = append(parts, part)
		}
		sort.Slice(parts, func(i, j int) bool { return parts[i] < parts[j] })
		b = binary.BigEndian.AppendUint32(b, uint32(len(parts)))
		for _, part := range parts {
			b = binary.BigEndian.AppendUint32(b, uint32(part))
			b = binary.BigEndian.AppendUint64(b, uint64(p[t][part]))
		}
	}
	return b, nil
}

// UnmarshalPosition decodes PositionSerde version 0 bytes. Trailing bytes
// (Kafka's serializer pads its buffer with zeros) are ignored.
func UnmarshalPosition(b []byte) (Position, error) {
	bad := func(what string) (Position, error) {
		return nil, fmt.Errorf("%w: position: %s", ErrInvalidArgument, what)
	}
	p := Position{}
	if len(b) == 0 {
		return p, nil
	}
	if b[0] != 0 {
		return bad(fmt.Sprintf("unknown version %d", b[0]))
	}
	b = b[1:]
	u32 := func() (int, bool) {
		if len(b) < 4 {
			return 0, false
		}
		v := binary.BigEndian.Uint32(b)
		b = b[4:]
		return int(int32(v)), true
	}
	nt, ok := u32()
	if !ok || nt < 0 {
		return bad("truncated topic count")
	}
	for i := 0; i < nt; i++ {
		tl, ok := u32()
		if !ok || tl < 0 || tl > len(b) {
			return bad("truncated topic")
		}
		topic := string(b[:tl])
		b = b[tl:]
		np, ok := u32()
		if !ok || np < 0 || np > len(b)/12 {
			return bad("truncated partition count")
		}
		for j := 0; j < np; j++ {
			part := int32(binary.BigEndian.Uint32(b))
			off := int64(binary.BigEndian.Uint64(b[4:]))
			b = b[12:]
			p.Update(topic, part, off)
		}
	}
	return p, nil
}
