package assignment

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"
)

// vector is one golden vector written by the Kafka Streams 4.4 jar
// (testdata/README.md).
type vector struct {
	Name    string          `json:"name"`
	Hex     string          `json:"hex"`
	Decoded json.RawMessage `json:"decoded"`
}

func loadVectors(t testing.TB, file string) []vector {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(raw, &vs); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(vs) == 0 {
		t.Fatalf("%s: no vectors", file)
	}
	return vs
}

func (v vector) bytes(t testing.TB) []byte {
	t.Helper()
	b, err := hex.DecodeString(v.Hex)
	if err != nil {
		t.Fatalf("%s: %v", v.Name, err)
	}
	return b
}

// jsonTree parses JSON keeping numbers exact (int64 offsets).
func jsonTree(t testing.TB, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("parsing %s: %v", b, err)
	}
	return v
}

// sameJSON reports whether got, marshalled, is the JSON value want.
func sameJSON(t testing.TB, got any, want []byte) (bool, string) {
	t.Helper()
	g, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(jsonTree(t, g), jsonTree(t, want)), string(g)
}

// orderFixed reports whether a's encoding has no order that depends on
// Java's HashMap iteration: no map or set with more than one entry and at
// most one topic in the dictionary.
func orderFixed(a *AssignmentInfo) bool {
	topics := map[string]bool{}
	for _, m := range []map[HostInfo][]TopicPartition{a.PartitionsByHost, a.StandbyPartitionsByHost} {
		if len(m) > 1 {
			return false
		}
		for _, ps := range m {
			if len(ps) > 1 {
				return false
			}
			for _, tp := range ps {
				topics[tp.Topic] = true
			}
		}
	}
	if len(a.StandbyTasks) > 1 {
		return false
	}
	for _, ps := range a.StandbyTasks {
		if len(ps) > 1 {
			return false
		}
	}
	return len(topics) <= 1
}

// activeTasksEnd is the length of a's encoding up to the end of its
// active tasks.
func activeTasksEnd(a *AssignmentInfo) int {
	n := 8
	if a.Version >= 3 {
		n += 4
	}
	for _, t := range a.ActiveTasks {
		n += 8
		if a.Version >= MinNamedTopologyVersion {
			n += 4 + 2*len(utf16.Encode([]rune(t.NamedTopology)))
		}
	}
	return n
}

// TestSubscriptionAndAssignmentGolden decodes every vector the Kafka
// Streams 4.4 jar wrote and compares with what the jar decoded; it encodes
// each SubscriptionInfo again and compares the bytes, and each
// AssignmentInfo, comparing bytes where Java's map order plays no part and
// the decoded structure always.
func TestSubscriptionAndAssignmentGolden(t *testing.T) {
	t.Run("SubscriptionInfo", func(t *testing.T) {
		versions := map[int32]int{}
		for _, v := range loadVectors(t, "subscription-info.json") {
			b := v.bytes(t)
			s, err := DecodeSubscriptionInfo(b)
			if err != nil {
				t.Errorf("%s: %v", v.Name, err)
				continue
			}
			versions[s.Version]++
			if ok, got := sameJSON(t, s, v.Decoded); !ok {
				t.Errorf("%s: decoded\n got %s\nwant %s", v.Name, got, v.Decoded)
			}
			enc, err := s.Encode()
			if s.Future() {
				if !errors.Is(err, ErrNotEncodable) {
					t.Errorf("%s: encoding a future version: %v, want ErrNotEncodable", v.Name, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: encode: %v", v.Name, err)
			} else if !bytes.Equal(enc, b) {
				t.Errorf("%s: encoded\n got %x\nwant %x", v.Name, enc, b)
			}
		}
		for v := int32(1); v <= LatestSupportedVersion+1; v++ {
			if versions[v] == 0 {
				t.Errorf("no vector of version %d", v)
			}
		}
	})
	t.Run("AssignmentInfo", func(t *testing.T) {
		versions, exact := map[int32]int{}, map[int32]int{}
		for _, v := range loadVectors(t, "assignment-info.json") {
			b := v.bytes(t)
			a, err := DecodeAssignmentInfo(b)
			if err != nil {
				t.Errorf("%s: %v", v.Name, err)
				continue
			}
			versions[a.Version]++
			if ok, got := sameJSON(t, a, v.Decoded); !ok {
				t.Errorf("%s: decoded\n got %s\nwant %s", v.Name, got, v.Decoded)
			}
			enc, err := a.Encode()
			if err != nil {
				t.Errorf("%s: encode: %v", v.Name, err)
				continue
			}
			again, err := DecodeAssignmentInfo(enc)
			if err != nil {
				t.Errorf("%s: decoding our encoding %x: %v", v.Name, enc, err)
			} else if ok, got := sameJSON(t, again, v.Decoded); !ok {
				t.Errorf("%s: our encoding decodes to\n got %s\nwant %s", v.Name, got, v.Decoded)
			}
			// The header and the active tasks come before any map: their
			// bytes are always the jar's.
			if head := activeTasksEnd(a); !bytes.Equal(enc[:head], b[:head]) {
				t.Errorf("%s: header and active tasks\n got %x\nwant %x", v.Name, enc[:head], b[:head])
			}
			if orderFixed(a) {
				exact[a.Version]++
				if !bytes.Equal(enc, b) {
					t.Errorf("%s: encoded\n got %x\nwant %x", v.Name, enc, b)
				}
			}
		}
		for v := int32(1); v <= LatestSupportedVersion; v++ {
			if versions[v] == 0 || exact[v] == 0 {
				t.Errorf("version %d: %d vectors, %d compared byte for byte", v, versions[v], exact[v])
			}
		}
	})
	t.Run("ConsumerProtocol", func(t *testing.T) {
		for _, v := range loadVectors(t, "consumer-protocol.json") {
			b := v.bytes(t)
			var got map[string]any
			var reencoded []byte
			if strings.HasPrefix(v.Name, "subscription") {
				m, err := DecodeMemberMetadata(b)
				if err != nil {
					t.Errorf("%s: %v", v.Name, err)
					continue
				}
				var rack any
				if m.Rack != "" {
					rack = m.Rack
				}
				got = map[string]any{"topics": m.Topics, "ownedPartitions": partitionsJSON(m.OwnedPartitions),
					"generation": m.Generation, "rack": rack, "userData": m.Info}
				if reencoded, err = m.Encode(); err != nil {
					t.Errorf("%s: encode: %v", v.Name, err)
				}
			} else {
				m, err := DecodeMemberAssignment(b)
				if err != nil {
					t.Errorf("%s: %v", v.Name, err)
					continue
				}
				got = map[string]any{"partitions": partitionsJSON(m.Partitions), "userData": m.Info}
				if reencoded, err = m.Encode(); err != nil {
					t.Errorf("%s: encode: %v", v.Name, err)
				}
				again, err := DecodeMemberAssignment(reencoded)
				if err != nil || !reflect.DeepEqual(again, m) {
					t.Errorf("%s: our encoding decodes to %+v, %v; want %+v", v.Name, again, err, m)
				}
			}
			if ok, g := sameJSON(t, got, v.Decoded); !ok {
				t.Errorf("%s: decoded\n got %s\nwant %s", v.Name, g, v.Decoded)
			}
			// One owned topic: Java's grouping by topic has one order only.
			if strings.HasPrefix(v.Name, "subscription-v3") && !bytes.Equal(reencoded, b) {
				t.Errorf("%s: encoded\n got %x\nwant %x", v.Name, reencoded, b)
			}
		}
	})
}
