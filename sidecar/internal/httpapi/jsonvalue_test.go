package httpapi

import (
	"encoding/json"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// TestJSONValueRendersProtobufInItsJSONMapping: a Protobuf message renders
// as Protobuf's JSON mapping (a Timestamp as RFC 3339, an Int64Value as a
// string), not as its Go struct's fields; other values as they are.
func TestJSONValueRendersProtobufInItsJSONMapping(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
	}{
		{timestamppb.New(mustTime(t, "2026-12-01T10:00:01Z")), `"2026-12-01T10:00:01Z"`},
		{wrapperspb.Int64(1 << 60), `"1152921504606846976"`},
		{map[string]int{"n": 1}, `{"n":1}`},
		{"text", `"text"`},
	} {
		v, err := jsonValue(c.in)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.want {
			t.Errorf("%T renders %s, want %s", c.in, b, c.want)
		}
	}
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	ts, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}
