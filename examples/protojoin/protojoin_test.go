package protojoin

import (
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/stoatflow/stoatflow/kstreams/serde/registry"
)

// TestMessagesAreTheJavaTwinsClasses: the messages carry the Java classes
// the JVM twin's file options give them, so that a .properties file's
// specific.protobuf.value.type finds them, and their indexes in the file
// are Profile 0, Click 1, EnrichedClick 2.
func TestMessagesAreTheJavaTwinsClasses(t *testing.T) {
	for i, c := range []struct {
		class string
		want  string
	}{
		{"io.stoatflow.reference.ProtoJoinMessages$Profile", "io.stoatflow.protojoin.Profile"},
		{"io.stoatflow.reference.ProtoJoinMessages$Click", "io.stoatflow.protojoin.Click"},
		{"io.stoatflow.reference.ProtoJoinMessages$EnrichedClick", "io.stoatflow.protojoin.EnrichedClick"},
	} {
		mt, err := (registry.Classes{}).ProtobufTypeByClass(c.class)
		if err != nil || string(mt.Descriptor().FullName()) != c.want || mt.Descriptor().Index() != i {
			t.Errorf("%s: %v, %v", c.class, mt, err)
		}
	}
}

func TestEnrich(t *testing.T) {
	click := New(Click, map[string]any{"page": "home", "n": int64(3)})
	got := Enrich("inner", click, New(Profile, map[string]any{"name": "Ada", "tier": "gold"}))
	want := New(EnrichedClick, map[string]any{"page": "home", "n": int64(3), "name": "Ada", "tier": "gold", "kind": "inner"})
	if !proto.Equal(got, want) {
		t.Fatalf("inner: %v, want %v", got, want)
	}
	got = Enrich("left", click, nil)
	want = New(EnrichedClick, map[string]any{"page": "home", "n": int64(3), "kind": "left"})
	if !proto.Equal(got, want) {
		t.Fatalf("left without a profile: %v, want %v", got, want)
	}
}
