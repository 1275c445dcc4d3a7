package assignment

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// seeds adds the jar's golden vectors of file and the given encodings to
// the fuzz corpus.
func seeds(f *testing.F, file string, extra ...[]byte) {
	for _, v := range loadVectors(f, file) {
		f.Add(v.bytes(f))
	}
	for _, b := range extra {
		f.Add(b)
	}
}

// FuzzDecodeSubscriptionInfo: decoding never panics, and whatever decodes
// (short of a future version) encodes to bytes that decode to the same
// value and encode to the same bytes again.
func FuzzDecodeSubscriptionInfo(f *testing.F) {
	var extra [][]byte
	latest := latestSubscription()
	for v := int32(1); v <= LatestSupportedVersion; v++ {
		s, _ := latest.AtVersion(v)
		b, _ := s.Encode()
		extra = append(extra, b)
	}
	seeds(f, "subscription-info.json", extra...)
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := DecodeSubscriptionInfo(b)
		if err != nil {
			var de *DecodeError
			if s != nil || !errors.As(err, &de) {
				t.Fatalf("DecodeSubscriptionInfo(%x) = %+v, %v", b, s, err)
			}
			return
		}
		if s.Future() {
			return
		}
		enc, err := s.Encode()
		if err != nil {
			t.Fatalf("decoded %+v from %x, which does not encode: %v", s, b, err)
		}
		again, err := DecodeSubscriptionInfo(enc)
		if err != nil {
			t.Fatalf("encoding %x of %+v does not decode: %v", enc, s, err)
		}
		if !reflect.DeepEqual(again, s) {
			t.Fatalf("round trip of %x:\n got %+v\nwant %+v", b, again, s)
		}
		if enc2, _ := again.Encode(); !bytes.Equal(enc2, enc) {
			t.Fatalf("encoding not stable: %x vs %x", enc2, enc)
		}
	})
}

// FuzzDecodeAssignmentInfo: decoding never panics, and whatever decodes
// encodes to bytes that decode to the same value and encode to the same
// bytes again. The one value that decodes but cannot be encoded is a
// string that grows past writeUTF's 65535 bytes, as raw NULs (one byte on
// the wire, which Java reads) written as 0xC0 0x80 do.
func FuzzDecodeAssignmentInfo(f *testing.F) {
	var extra [][]byte
	for v := int32(1); v <= LatestSupportedVersion; v++ {
		b, _ := populatedAssignment(v).Encode()
		extra = append(extra, b)
	}
	seeds(f, "assignment-info.json", extra...)
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := DecodeAssignmentInfo(b)
		if err != nil {
			var de *DecodeError
			if a != nil || !errors.As(err, &de) {
				t.Fatalf("DecodeAssignmentInfo(%x) = %+v, %v", b, a, err)
			}
			return
		}
		enc, err := a.Encode()
		if err != nil {
			var ee *EncodeError
			if errors.As(err, &ee) && strings.HasPrefix(ee.Reason, "encoded string too long") {
				return
			}
			t.Fatalf("decoded %+v from %x, which does not encode: %v", a, b, err)
		}
		again, err := DecodeAssignmentInfo(enc)
		if err != nil {
			t.Fatalf("encoding %x of %+v does not decode: %v", enc, a, err)
		}
		if !reflect.DeepEqual(again, a) {
			t.Fatalf("round trip of %x:\n got %+v\nwant %+v", b, again, a)
		}
		if enc2, _ := again.Encode(); !bytes.Equal(enc2, enc) {
			t.Fatalf("encoding not stable: %x vs %x", enc2, enc)
		}
	})
}
