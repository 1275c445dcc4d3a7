package compat

import (
	"errors"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// TestEveryAcceptedSerdeClassRuns: every class default.key.serde and
// default.value.serde accept has a serde the runtime can build, which reads
// back what it writes. A class accepted here and missing from
// serde.ByClassName would pass `sidecar config` and fail in `run`.
func TestEveryAcceptedSerdeClassRuns(t *testing.T) {
	samples := map[Serde][]byte{
		SerdeString: []byte("text"), SerdeLong: make([]byte, 8), SerdeInteger: make([]byte, 4), SerdeShort: make([]byte, 2),
		SerdeFloat: make([]byte, 4), SerdeDouble: make([]byte, 8), SerdeByteArray: {1, 2}, SerdeBytes: {3},
		SerdeByteBuffer: {4, 5, 6}, SerdeUUID: []byte("123e4567-e89b-12d3-a456-426614174000"), SerdeBoolean: {1},
	}
	for class, s := range serdeClasses {
		if s.String() != class {
			t.Errorf("%s: String() = %s", class, s)
		}
		if s.IsSchemaRegistry() {
			// Built from the registry settings; integration's
			// TestAvroPoisonRecordsSkippedUnderLogAndContinue runs them
			// from a configuration.
			continue
		}
		_, diags := load(t, base+"default.key.serde="+class+"\n")
		if diags.HasErrors() {
			t.Errorf("%s: %v", class, diags)
		}
		u, err := serde.ByClassName(class)
		if err != nil {
			t.Errorf("%s is accepted by the config but has no serde: %v", class, err)
			continue
		}
		if s == SerdeVoid {
			if b, err := u.SerializeAny("t", nil); err != nil || b != nil {
				t.Errorf("%s: null writes %x, %v", class, b, err)
			}
			continue
		}
		in, ok := samples[s]
		if !ok {
			t.Errorf("%s: no sample bytes", class)
			continue
		}
		v, err := u.DeserializeAny("t", in)
		if err != nil {
			t.Errorf("%s: reading %x: %v", class, in, err)
			continue
		}
		out, err := u.SerializeAny("t", v)
		if err != nil || string(out) != string(in) {
			t.Errorf("%s: %x reads back as %x (%v)", class, in, out, err)
		}
	}
	if _, err := serde.ByClassName("org.apache.kafka.common.serialization.Serdes$ListSerde"); !errors.Is(err, serde.ErrUnknownClass) {
		t.Errorf("ListSerde: %v", err)
	}
}

// TestSerdeEncodingKeys: Kafka Streams configures its default serdes with the
// application config, so a charset other than UTF-8 would change the bytes
// it writes; StoatFlow refuses it by name and accepts UTF-8 in Java's
// spellings.
func TestSerdeEncodingKeys(t *testing.T) {
	for key := range serdeEncodingKeys {
		for _, v := range []string{"UTF-8", "utf8", "Unicode-1-1-UTF-8"} {
			if _, diags := load(t, base+key+"="+v+"\n"); len(diags) != 0 {
				t.Errorf("%s=%s: %v", key, v, diags)
			}
		}
		_, diags := load(t, base+key+"=ISO-8859-1\n")
		if !diags.HasErrors() || !strings.Contains(diags.Err().Error(), key+"=ISO-8859-1") {
			t.Errorf("%s=ISO-8859-1: %v", key, diags)
		}
	}
}
