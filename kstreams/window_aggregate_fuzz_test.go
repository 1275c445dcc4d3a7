package kstreams

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// FuzzWindowedKeySerde decodes arbitrary bytes as time- and session-windowed
// keys, as the DSL's windowed tables read them: input shorter than the
// window suffix is a SerializationError, and whatever decodes must encode
// back to the same bytes.
func FuzzWindowedKeySerde(f *testing.F) {
	f.Add([]byte("k\x00\x00\x00\x00\x00\x00\x00\x05"))
	f.Add([]byte("k\x00\x00\x00\x00\x00\x00\x00\x09\x00\x00\x00\x00\x00\x00\x00\x05"))
	f.Add([]byte("short"))
	inner := serde.Erase[string](serde.String{})
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, s := range []windowedKeySerde[string]{{inner: inner, size: 10}, {inner: inner, session: true}} {
			v, err := s.DeserializeAny("t", b)
			suffix := 8
			if s.session {
				suffix = 16
			}
			if (err != nil) != (len(b) < suffix) || (err != nil && !errors.Is(err, serde.ErrSerialization)) {
				t.Fatalf("%x (session %v): %v", b, s.session, err)
			}
			if err != nil {
				continue
			}
			out, err := s.SerializeAny("t", v)
			if err != nil {
				t.Fatalf("%x decoded to %+v, which does not encode: %v", b, v, err)
			}
			if !bytes.Equal(out, b) {
				t.Fatalf("%x -> %+v -> %x", b, v, out)
			}
		}
	})
}
