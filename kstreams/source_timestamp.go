package kstreams

import (
	"errors"
	"fmt"
	"time"
)

// ConsumerRecord is what a TimestampExtractor sees of an input record, after
// the source's serdes turned its key and value into Go values (Kafka's
// ConsumerRecord<Object, Object>).
type ConsumerRecord struct {
	Topic     string
	Partition int32
	Offset    int64
	// Timestamp is the record's own timestamp (CreateTime or LogAppendTime);
	// negative when the record carries none.
	Timestamp int64
	Key       any
	Value     any
	Headers   []Header
}

// String names the record by its position and timestamp, not its contents,
// so that messages about it can go to logs.
func (r ConsumerRecord) String() string {
	return fmt.Sprintf("(topic = %s, partition = %d, offset = %d, timestamp = %d)", r.Topic, r.Partition, r.Offset, r.Timestamp)
}

// TimestampExtractor gives each input record the timestamp it is processed
// with: Kafka's TimestampExtractor, set per source on Consumed or for the
// application with default.timestamp.extractor. partitionTime is the
// largest timestamp extracted so far on the record's partition, -1 when
// unknown. A negative result drops the record (counted as a dropped record);
// an error stops the task, as an exception thrown by a Kafka extractor stops
// the stream thread.
type TimestampExtractor interface {
	Extract(r ConsumerRecord, partitionTime int64) (int64, error)
}

// TimestampExtractorFunc adapts a function to a TimestampExtractor.
type TimestampExtractorFunc func(r ConsumerRecord, partitionTime int64) (int64, error)

// Extract calls f.
func (f TimestampExtractorFunc) Extract(r ConsumerRecord, partitionTime int64) (int64, error) {
	return f(r, partitionTime)
}

// ErrInvalidTimestamp is the class of the errors FailOnInvalidTimestamp and
// UsePartitionTimeOnInvalidTimestamp return for a record without a valid
// timestamp.
var ErrInvalidTimestamp = errors.New("kstreams: invalid timestamp")

// FailOnInvalidTimestamp takes the record's own timestamp and fails on a
// negative one: Kafka's FailOnInvalidTimestamp, the default extractor.
type FailOnInvalidTimestamp struct{}

// Extract returns r.Timestamp, or an error naming the record when it is
// negative.
func (FailOnInvalidTimestamp) Extract(r ConsumerRecord, _ int64) (int64, error) {
	if r.Timestamp >= 0 {
		return r.Timestamp, nil
	}
	return 0, fmt.Errorf("%w: input record %v has invalid (negative) timestamp. Possibly because a pre-0.10 producer "+
		"client was used to write this record to Kafka without embedding a timestamp, or because the input topic was "+
		"created before upgrading the Kafka cluster to 0.10+. Use a different TimestampExtractor to process this data "+
		"(default.timestamp.extractor, or the source's Consumed)", ErrInvalidTimestamp, r)
}

// LogAndSkipOnInvalidTimestamp takes the record's own timestamp and returns
// a negative one unchanged, so the task drops the record with a warning and
// counts it: Kafka's LogAndSkipOnInvalidTimestamp.
type LogAndSkipOnInvalidTimestamp struct{}

// Extract returns r.Timestamp.
func (LogAndSkipOnInvalidTimestamp) Extract(r ConsumerRecord, _ int64) (int64, error) {
	return r.Timestamp, nil
}

// UsePartitionTimeOnInvalidTimestamp takes the record's own timestamp and
// gives a record with a negative one the partition time instead; it fails
// when the partition time is unknown (no valid record yet on the partition):
// Kafka's UsePartitionTimeOnInvalidTimestamp.
type UsePartitionTimeOnInvalidTimestamp struct{}

// Extract returns r.Timestamp, or partitionTime when r.Timestamp is negative.
func (UsePartitionTimeOnInvalidTimestamp) Extract(r ConsumerRecord, partitionTime int64) (int64, error) {
	if r.Timestamp >= 0 {
		return r.Timestamp, nil
	}
	if partitionTime < 0 {
		return 0, fmt.Errorf("%w: could not infer new timestamp for input record %v because partition time is unknown",
			ErrInvalidTimestamp, r)
	}
	return partitionTime, nil
}

// WallclockTimestampExtractor gives every record the current wall-clock
// time, ignoring its own timestamp: Kafka's WallclockTimestampExtractor.
type WallclockTimestampExtractor struct{}

// Extract returns the current time in milliseconds.
func (WallclockTimestampExtractor) Extract(ConsumerRecord, int64) (int64, error) {
	return time.Now().UnixMilli(), nil
}

// TimestampExtractionError is an extractor's failure on one input record. It
// is never subject to the processing exception handler: like an exception
// thrown by a Kafka Streams extractor, it stops the application.
type TimestampExtractionError struct {
	Extractor string // the extractor's Go type
	Err       error
}

func (e *TimestampExtractionError) Error() string {
	return "timestamp extractor " + e.Extractor + ": " + e.Err.Error()
}

func (e *TimestampExtractionError) Unwrap() error { return e.Err }

// DroppedNegativeTimestamp is the reason given to TaskConfig.OnDroppedRecord
// for a record dropped because its extracted timestamp was negative.
const DroppedNegativeTimestamp = "negative-timestamp"

func extractorName(e TimestampExtractor) string { return fmt.Sprintf("%T", e) }
