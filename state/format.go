package state

import (
	"fmt"

	"github.com/stoatflow/stoatflow/internal/storeformat"
)

// The layouts of window and session keys and of timestamped values belong
// to internal/storeformat, which the write path in kstreams calls too; these
// helpers only size the buffer and give decoding errors state's class.

func windowKey(key []byte, start int64, seq int32) []byte {
	return storeformat.AppendWindowKey(make([]byte, 0, len(key)+storeformat.WindowKeySuffix), key, start, seq)
}

func splitWindowKey(b []byte) (key []byte, start int64, seq int32, err error) {
	key, start, seq, err = storeformat.SplitWindowKey(b)
	if err != nil {
		err = fmt.Errorf("%w: %w", ErrInvalidArgument, err)
	}
	return key, start, seq, err
}

func sessionKey(key []byte, start, end int64) []byte {
	return storeformat.AppendSessionKey(make([]byte, 0, len(key)+storeformat.SessionKeySuffix), key, start, end)
}

func splitSessionKey(b []byte) (key []byte, start, end int64, err error) {
	key, start, end, err = storeformat.SplitSessionKey(b)
	if err != nil {
		err = fmt.Errorf("%w: %w", ErrInvalidArgument, err)
	}
	return key, start, end, err
}

// restoredTimestamped is the value a timestamped store keeps for a
// changelog record: the record timestamp ++ the record value.
func restoredTimestamped(r ChangelogRecord) []byte {
	return storeformat.AppendTimestamped(make([]byte, 0, storeformat.TimestampSize+len(r.Value)), r.Timestamp, r.Value)
}

// segmentID returns the segment of a timestamp for interval.
func segmentID(ts, interval int64) int64 {
	if ts < 0 {
		return (ts - interval + 1) / interval
	}
	return ts / interval
}

// SegmentInterval returns Kafka Streams' default segment interval for a
// retention period: max(retention/2, 60000) ms.
func SegmentInterval(retentionMs int64) int64 {
	return max(retentionMs/2, 60000)
}
