package storeformat

import (
	"bytes"
	"encoding/hex"
	"reflect"
	"testing"
)

// kafkaBufferValue is a suppress buffer changelog value Kafka Streams 4.4
// wrote (a windowed count's first update: prior and old the initial 0, new
// 1; the old value written as "same as prior").
const kafkaBufferValue = "000001a23174ade0" + "0000000000000011" + "00000030" +
	"54657374537570707265737346696e616c4d6174636865734b61666b6153747265616d732d696e2d6161393338616638" +
	"00000000" + "00000000" + "00000008" + "0000000000000000" + "fffffffe" + "00000008" + "0000000000000001" +
	"000001a23174d4f0"

func TestBufferValueReadsAndWritesKafkaBytes(t *testing.T) {
	b, err := hex.DecodeString(kafkaBufferValue)
	if err != nil {
		t.Fatal(err)
	}
	v, bt, err := SplitBufferValue(b)
	if err != nil {
		t.Fatal(err)
	}
	zero, one := make([]byte, 8), []byte{0, 0, 0, 0, 0, 0, 0, 1}
	want := BufferValue{Prior: zero, Old: zero, New: one, Context: RecordContext{
		Timestamp: 0x1a23174ade0, Offset: 17, Topic: "TestSuppressFinalMatchesKafkaStreams-in-aa938af8", Partition: 0}}
	if !reflect.DeepEqual(v, want) || bt != 0x1a23174d4f0 {
		t.Fatalf("read %+v time %d", v, bt)
	}
	if got := AppendBufferValue(nil, v, bt); !bytes.Equal(got, b) {
		t.Errorf("wrote %x\nwant  %x", got, b)
	}
	// 8 (prior, the old value shares it) + 8 (new) + 8 + 8 + 48 + 4.
	if n := v.MemoryEstimate(); n != 84 {
		t.Errorf("memory estimate %d, want 84", n)
	}
}

func TestBufferValueRoundTrips(t *testing.T) {
	for _, v := range []BufferValue{
		{},
		{Prior: []byte("p"), Old: []byte("o"), New: []byte{}, Context: RecordContext{Timestamp: -1, Offset: -1, Partition: -1}},
		{Old: []byte("o"), Context: RecordContext{Topic: "t\u00e9\U0001F600", Headers: []RecordHeader{{Key: "k", Value: []byte("v")}, {Key: "null"}}}},
	} {
		b := AppendBufferValue(nil, v, 42)
		got, bt, err := SplitBufferValue(b)
		if err != nil || bt != 42 || !reflect.DeepEqual(got, v) {
			t.Errorf("%+v: read back %+v %d %v", v, got, bt, err)
		}
	}
	// Java counts UTF-16 code units: é is one, the emoji two.
	if n := (RecordContext{Topic: "t\u00e9\U0001F600"}).MemoryEstimate(); n != 8+8+4+4 {
		t.Errorf("memory estimate %d, want 24", n)
	}
}

func FuzzSplitBufferValue(f *testing.F) {
	b, _ := hex.DecodeString(kafkaBufferValue)
	f.Add(b)
	f.Add(AppendBufferValue(nil, BufferValue{Context: RecordContext{Headers: []RecordHeader{{Key: "k"}}}}, 1))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, bt, err := SplitBufferValue(b)
		if err != nil {
			return
		}
		if got := AppendBufferValue(nil, v, bt); !bytes.Equal(got, b) {
			// The only other encoding of a value is an old value spelled
			// out although it equals the prior one.
			again, bt2, err := SplitBufferValue(got)
			if err != nil || bt2 != bt || !reflect.DeepEqual(again, v) {
				t.Fatalf("%x read as %+v, which writes %x", b, v, got)
			}
		}
	})
}
