package storeformat

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// The foreign-key join's layouts, as Kafka Streams 4.4 writes them:
//
//	subscription (v1)   byte version|0x80 if no hash ++ byte instruction ++ [16-byte hash] ++ primary key ++ int32 primary partition
//	subscription (v0)   the same without the primary partition               SubscriptionWrapperSerde
//	response (v0)       byte version|0x80 if no hash ++ [16-byte hash] ++ foreign value (absent: null)  SubscriptionResponseWrapperSerde
//	combined key        int32 foreign key length ++ foreign key ++ primary key                           CombinedKeySchema
//
// The hash is Murmur3.hash128 of the serialized left value: two int64s,
// written big-endian in order.

// FKInstruction is what a subscription asks of the right side: Kafka's
// SubscriptionWrapper.Instruction.
type FKInstruction byte

// The instructions and their wire bytes.
const (
	// DeleteKeyNoPropagate removes the subscription and sends nothing.
	DeleteKeyNoPropagate FKInstruction = 0
	// DeleteKeyAndPropagate removes the subscription and sends a null.
	DeleteKeyAndPropagate FKInstruction = 1
	// PropagateNullIfNoFKValAvailable subscribes and sends the right value,
	// or a null if there is none.
	PropagateNullIfNoFKValAvailable FKInstruction = 2
	// PropagateOnlyIfFKValAvailable subscribes and sends the right value
	// only if there is one.
	PropagateOnlyIfFKValAvailable FKInstruction = 3
)

// String is the instruction's Java name.
func (i FKInstruction) String() string {
	switch i {
	case DeleteKeyNoPropagate:
		return "DELETE_KEY_NO_PROPAGATE"
	case DeleteKeyAndPropagate:
		return "DELETE_KEY_AND_PROPAGATE"
	case PropagateNullIfNoFKValAvailable:
		return "PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE"
	case PropagateOnlyIfFKValAvailable:
		return "PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE"
	}
	return fmt.Sprintf("FKInstruction(%d)", byte(i))
}

// Versions of the wrappers Kafka Streams 4.4 writes.
const (
	SubscriptionVersion = 1
	ResponseVersion     = 0
)

// ValueHash is a 128-bit Murmur3 hash as Kafka keeps it: two longs.
type ValueHash [2]int64

// Subscription is Kafka's SubscriptionWrapper with the primary key in its
// serialized form. A nil Hash is a subscription for a deleted left row.
type Subscription struct {
	Version     byte
	Instruction FKInstruction
	Hash        *ValueHash
	PrimaryKey  []byte
	// PrimaryPartition is the left row's partition (version 1 and later);
	// HasPartition is false for a version 0 subscription.
	PrimaryPartition int32
	HasPartition     bool
}

// AppendSubscription appends s in its wire layout. Version 0 carries no
// primary partition.
func AppendSubscription(dst []byte, s Subscription) ([]byte, error) {
	if s.Version > SubscriptionVersion {
		return nil, fmt.Errorf("storeformat: unsupported SubscriptionWrapper version %d", s.Version)
	}
	if s.PrimaryKey == nil {
		return nil, fmt.Errorf("storeformat: a subscription needs a primary key")
	}
	first := s.Version
	if s.Hash == nil {
		first |= 0x80
	}
	dst = append(dst, first, byte(s.Instruction))
	if s.Hash != nil {
		dst = binary.BigEndian.AppendUint64(dst, uint64(s.Hash[0]))
		dst = binary.BigEndian.AppendUint64(dst, uint64(s.Hash[1]))
	}
	dst = append(dst, s.PrimaryKey...)
	if s.Version >= 1 {
		dst = binary.BigEndian.AppendUint32(dst, uint32(s.PrimaryPartition))
	}
	return dst, nil
}

// DecodeSubscription reads a subscription. The primary key aliases b.
func DecodeSubscription(b []byte) (Subscription, error) {
	if len(b) < 2 {
		return Subscription{}, short("subscription", len(b), 2)
	}
	s := Subscription{Version: b[0] & 0x7f, Instruction: FKInstruction(b[1])}
	if s.Instruction > PropagateOnlyIfFKValAvailable {
		return Subscription{}, fmt.Errorf("storeformat: subscription: unknown instruction byte value = %d", b[1])
	}
	if s.Version > SubscriptionVersion {
		return Subscription{}, fmt.Errorf("storeformat: SubscriptionWrapper is of an incompatible version %d", s.Version)
	}
	rest := b[2:]
	if b[0]&0x80 == 0 {
		if len(rest) < 16 {
			return Subscription{}, short("subscription hash", len(rest), 16)
		}
		s.Hash = &ValueHash{int64(binary.BigEndian.Uint64(rest)), int64(binary.BigEndian.Uint64(rest[8:]))}
		rest = rest[16:]
	}
	if s.Version >= 1 {
		if len(rest) < 4 {
			return Subscription{}, short("subscription primary partition", len(rest), 4)
		}
		s.PrimaryKey = rest[:len(rest)-4]
		s.PrimaryPartition, s.HasPartition = int32(binary.BigEndian.Uint32(rest[len(rest)-4:])), true
	} else {
		s.PrimaryKey = rest
	}
	return s, nil
}

// Response is Kafka's SubscriptionResponseWrapper with the foreign value
// in its serialized form (nil: null). The primary partition travels beside
// it, not in its bytes: it only picks the response topic's partition.
type Response struct {
	Version      byte
	Hash         *ValueHash
	ForeignValue []byte
}

// AppendResponse appends r in its wire layout.
func AppendResponse(dst []byte, r Response) []byte {
	first := r.Version
	if r.Hash == nil {
		first |= 0x80
	}
	dst = append(dst, first)
	if r.Hash != nil {
		dst = binary.BigEndian.AppendUint64(dst, uint64(r.Hash[0]))
		dst = binary.BigEndian.AppendUint64(dst, uint64(r.Hash[1]))
	}
	return append(dst, r.ForeignValue...)
}

// DecodeResponse reads a response. An empty foreign value is a null one,
// as in Kafka. The foreign value aliases b.
func DecodeResponse(b []byte) (Response, error) {
	if len(b) < 1 {
		return Response{}, short("subscription response", len(b), 1)
	}
	r := Response{Version: b[0] & 0x7f}
	rest := b[1:]
	if b[0]&0x80 == 0 {
		if len(rest) < 16 {
			return Response{}, short("subscription response hash", len(rest), 16)
		}
		r.Hash = &ValueHash{int64(binary.BigEndian.Uint64(rest)), int64(binary.BigEndian.Uint64(rest[8:]))}
		rest = rest[16:]
	}
	if len(rest) > 0 {
		r.ForeignValue = rest
	}
	return r, nil
}

// AppendCombinedKey appends the subscription store key of a foreign key
// and a primary key, both serialized.
func AppendCombinedKey(dst, foreignKey, primaryKey []byte) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(foreignKey)))
	dst = append(dst, foreignKey...)
	return append(dst, primaryKey...)
}

// CombinedKeyPrefix is the prefix every combined key of foreignKey starts
// with: the range a right-side update scans.
func CombinedKeyPrefix(foreignKey []byte) []byte {
	return AppendCombinedKey(make([]byte, 0, 4+len(foreignKey)), foreignKey, nil)
}

// SplitCombinedKey splits a combined key into its foreign and primary keys
// (aliasing b).
func SplitCombinedKey(b []byte) (foreignKey, primaryKey []byte, err error) {
	if len(b) < 4 {
		return nil, nil, short("combined key", len(b), 4)
	}
	n := binary.BigEndian.Uint32(b)
	if uint64(n) > uint64(len(b)-4) {
		return nil, nil, fmt.Errorf("%w: combined key of %d bytes names a foreign key of %d bytes", ErrShort, len(b), n)
	}
	return b[4 : 4+n], b[4+n:], nil
}

// Murmur3Seed is the seed of Kafka's Murmur3.hash128(byte[]).
const Murmur3Seed = 104729

// Murmur3Hash128 is Kafka's Murmur3.hash128(data): MurmurHash3 x64 128
// with seed 104729.
func Murmur3Hash128(data []byte) ValueHash {
	return Murmur3Hash128Seed(data, Murmur3Seed)
}

// Murmur3Hash128Seed is MurmurHash3 x64 128 of data with seed, as Kafka's
// Murmur3.hash128(data, 0, len, seed) returns it.
func Murmur3Hash128Seed(data []byte, seed int32) ValueHash {
	const c1, c2 = 0x87c37b91114253d5, 0x4cf5ad432745937f
	h1, h2 := uint64(int64(seed)), uint64(int64(seed))
	n := len(data)
	blocks := n / 16
	for i := range blocks {
		k1 := binary.LittleEndian.Uint64(data[i*16:])
		k2 := binary.LittleEndian.Uint64(data[i*16+8:])
		k1 *= c1
		k1 = bits.RotateLeft64(k1, 31)
		k1 *= c2
		h1 ^= k1
		h1 = bits.RotateLeft64(h1, 27)
		h1 += h2
		h1 = h1*5 + 0x52dce729
		k2 *= c2
		k2 = bits.RotateLeft64(k2, 33)
		k2 *= c1
		h2 ^= k2
		h2 = bits.RotateLeft64(h2, 31)
		h2 += h1
		h2 = h2*5 + 0x38495ab5
	}
	tail := data[blocks*16:]
	var k1, k2 uint64
	for i := len(tail) - 1; i >= 8; i-- {
		k2 ^= uint64(tail[i]) << (8 * (i - 8))
	}
	if len(tail) > 8 {
		k2 *= c2
		k2 = bits.RotateLeft64(k2, 33)
		k2 *= c1
		h2 ^= k2
	}
	for i := min(len(tail), 8) - 1; i >= 0; i-- {
		k1 ^= uint64(tail[i]) << (8 * i)
	}
	if len(tail) > 0 {
		k1 *= c1
		k1 = bits.RotateLeft64(k1, 31)
		k1 *= c2
		h1 ^= k1
	}
	h1 ^= uint64(n)
	h2 ^= uint64(n)
	h1 += h2
	h2 += h1
	h1, h2 = fmix64(h1), fmix64(h2)
	h1 += h2
	h2 += h1
	return ValueHash{int64(h1), int64(h2)}
}

func fmix64(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}
