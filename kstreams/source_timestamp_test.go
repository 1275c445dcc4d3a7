package kstreams_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
)

// The cases of Kafka's TimestampExtractorTest, FailOnInvalidTimestampTest,
// LogAndSkipOnInvalidTimestampTest, UsePartitionTimeOnInvalidTimestampTest
// and WallclockTimestampExtractorTest.

func rec(ts int64) kstreams.ConsumerRecord {
	return kstreams.ConsumerRecord{Topic: "anyTopic", Partition: 3, Offset: 17, Timestamp: ts, Key: "k", Value: "v"}
}

func TestMetadataExtractorsReturnTheRecordTimestamp(t *testing.T) {
	for _, e := range []kstreams.TimestampExtractor{
		kstreams.FailOnInvalidTimestamp{}, kstreams.LogAndSkipOnInvalidTimestamp{}, kstreams.UsePartitionTimeOnInvalidTimestamp{},
	} {
		for _, partTime := range []int64{-1, 0, 100} {
			got, err := e.Extract(rec(42), partTime)
			if err != nil || got != 42 {
				t.Errorf("%T.Extract(ts 42, partition time %d) = %d, %v; want 42", e, partTime, got, err)
			}
		}
		// Zero is a valid timestamp, not a missing one.
		if got, err := e.Extract(rec(0), 100); err != nil || got != 0 {
			t.Errorf("%T.Extract(ts 0) = %d, %v; want 0", e, got, err)
		}
	}
}

func TestFailOnInvalidTimestampFailsNamingTheRecord(t *testing.T) {
	_, err := kstreams.FailOnInvalidTimestamp{}.Extract(rec(-1), 42)
	if !errors.Is(err, kstreams.ErrInvalidTimestamp) {
		t.Fatalf("err = %v, want ErrInvalidTimestamp", err)
	}
	for _, want := range []string{"topic = anyTopic", "partition = 3", "offset = 17", "has invalid (negative) timestamp", "Use a different TimestampExtractor"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
}

func TestLogAndSkipOnInvalidTimestampReturnsTheInvalidTimestamp(t *testing.T) {
	for _, ts := range []int64{-1, -42} {
		got, err := kstreams.LogAndSkipOnInvalidTimestamp{}.Extract(rec(ts), 100)
		if err != nil || got != ts {
			t.Errorf("Extract(ts %d) = %d, %v; want %d", ts, got, err, ts)
		}
	}
}

func TestUsePartitionTimeOnInvalidTimestamp(t *testing.T) {
	got, err := kstreams.UsePartitionTimeOnInvalidTimestamp{}.Extract(rec(-1), 42)
	if err != nil || got != 42 {
		t.Errorf("Extract(ts -1, partition time 42) = %d, %v; want 42", got, err)
	}
	_, err = kstreams.UsePartitionTimeOnInvalidTimestamp{}.Extract(rec(-1), -1)
	if !errors.Is(err, kstreams.ErrInvalidTimestamp) || !strings.Contains(err.Error(), "because partition time is unknown") ||
		!strings.Contains(err.Error(), "offset = 17") {
		t.Errorf("Extract(ts -1, partition time unknown) err = %v, want the partition-time-unknown failure", err)
	}
}

func TestWallclockTimestampExtractorUsesNow(t *testing.T) {
	before := time.Now().UnixMilli()
	got, err := kstreams.WallclockTimestampExtractor{}.Extract(rec(42), 0)
	after := time.Now().UnixMilli()
	if err != nil || got < before || got > after {
		t.Errorf("Extract = %d, %v; want a time in [%d, %d]", got, err, before, after)
	}
}

func TestConsumedWithTimestampExtractor(t *testing.T) {
	c := kstreams.ConsumedWith[string, string](nil, nil).WithTimestampExtractor(kstreams.UsePartitionTimeOnInvalidTimestamp{})
	if _, ok := c.TimestampExtractor.(kstreams.UsePartitionTimeOnInvalidTimestamp); !ok {
		t.Errorf("TimestampExtractor = %T", c.TimestampExtractor)
	}
}
