package storeformat

import (
	"encoding/binary"
	"fmt"
)

// A table update on a repartition topic (KTable.groupBy) carries its new and
// old value in one record value, Kafka Streams' ChangedSerializer layout: the
// last byte says which values are present.
//
//	old only  old ++ 0x00
//	new only  new ++ 0x01
//	both      varint(len(new)) ++ new ++ old ++ 0x02
//
// The varint is Kafka's zig-zag varint (ByteUtils.writeVarint). Flags 3 to 5
// are the same three with an is-latest byte before the flag, which Kafka
// Streams reads (versioned tables) but does not write for these topics.
const (
	changedOld        = 0
	changedNew        = 1
	changedBoth       = 2
	changedOldLatest  = 3
	changedNewLatest  = 4
	changedBothLatest = 5
)

// AppendChanged appends an update's value to dst; a nil value is absent.
// At least one of newV and oldV must be non-nil: a record with neither is
// never written.
func AppendChanged(dst, newV, oldV []byte) []byte {
	switch {
	case newV != nil && oldV != nil:
		dst = binary.AppendVarint(dst, int64(len(newV)))
		dst = append(dst, newV...)
		dst = append(dst, oldV...)
		return append(dst, changedBoth)
	case newV != nil:
		return append(append(dst, newV...), changedNew)
	default:
		return append(append(dst, oldV...), changedOld)
	}
}

// SplitChanged splits an update's value into its new and old value (nil when
// absent; an empty value stays empty, not nil). Both alias b.
func SplitChanged(b []byte) (newV, oldV []byte, err error) {
	if len(b) < 1 {
		return nil, nil, short("table update", len(b), 1)
	}
	flag, body := b[len(b)-1], b[:len(b)-1]
	if flag >= changedOldLatest && flag <= changedBothLatest {
		if len(body) < 1 {
			return nil, nil, short("table update", len(b), 2)
		}
		body, flag = body[:len(body)-1], flag-changedOldLatest
	}
	switch flag {
	case changedOld:
		return nil, body[:len(body):len(body)], nil
	case changedNew:
		return body[:len(body):len(body)], nil, nil
	case changedBoth:
		n, used := binary.Varint(body)
		if used <= 0 || n < 0 || n > int64(len(body)-used) {
			return nil, nil, fmt.Errorf("%w: table update's new-value length %d does not fit its %d bytes", ErrShort, n, len(b))
		}
		rest := body[used:]
		return rest[:n:n], rest[n:], nil
	}
	return nil, nil, fmt.Errorf("storeformat: table update with unknown encoding flag %d (Kafka Streams writes 0 to 5)", flag)
}
