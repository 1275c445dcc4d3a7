package assignment

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

var testPID = ProcessID{0x5c, 0x5b, 0x2f, 0x8e, 0x8a, 0x1d, 0x4c, 0x3e, 0x9f, 0x7a, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab}

func TestTaskIDStringParse(t *testing.T) {
	for _, c := range []struct {
		text string
		id   TaskID
	}{
		{"0_1", TaskID{0, 1, ""}},
		{"12_345", TaskID{12, 345, ""}},
		{"-1_-2", TaskID{-1, -2, ""}},
		{"topo__3_4", TaskID{3, 4, "topo"}},
		{"a_b__3_4", TaskID{3, 4, "a_b"}},
		{"名🙂__0_0", TaskID{0, 0, "名🙂"}},
	} {
		if got := c.id.String(); got != c.text {
			t.Errorf("%+v.String() = %q, want %q", c.id, got, c.text)
		}
		got, err := ParseTaskID(c.text)
		if err != nil || got != c.id {
			t.Errorf("ParseTaskID(%q) = %+v, %v; want %+v", c.text, got, err, c.id)
		}
	}
	// Integer.parseInt takes a plus sign; an empty name is no name.
	for text, want := range map[string]TaskID{"+1_2": {1, 2, ""}, "__5_6": {5, 6, ""}} {
		if got, err := ParseTaskID(text); err != nil || got != want {
			t.Errorf("ParseTaskID(%q) = %+v, %v; want %+v", text, got, err, want)
		}
	}
	for _, bad := range []string{"", "0", "_1", "0_", "0_1_2", "a_1", "0__1", "x__1", "x___1_2", "2147483648_0", "0_1 ", " 0_1"} {
		if got, err := ParseTaskID(bad); !errors.Is(err, ErrTaskIDFormat) {
			t.Errorf("ParseTaskID(%q) = %+v, %v; want ErrTaskIDFormat", bad, got, err)
		}
	}
}

func TestTaskIDCompare(t *testing.T) {
	// Sorted as Kafka's TaskId.compareTo sorts them (names in UTF-16 order:
	// U+1F642 before U+E000), unnamed first.
	sorted := []TaskID{
		{-1, 5, ""}, {0, 0, ""}, {0, 1, ""}, {0, 10, ""}, {1, 0, ""}, {2, -3, ""},
		{0, 0, "a"}, {9, 9, "a"}, {0, 0, "b"}, {0, 0, "\U0001F642"}, {0, 0, "\uE000"},
	}
	shuffled := slices.Clone(sorted)
	slices.Reverse(shuffled)
	slices.SortFunc(shuffled, TaskID.Compare)
	if !slices.Equal(shuffled, sorted) {
		t.Errorf("sorted %v, want %v", shuffled, sorted)
	}
}

func TestModifiedUTF8(t *testing.T) {
	for _, c := range []struct {
		s, wire string
	}{
		{"", "0000"},
		{"a", "000161"},
		{"\x00", "0002c080"},
		{"a\x00b", "000461c08062"},
		{"é", "0002c3a9"},
		{"€", "0003e282ac"},
		{"\U0001F642", "0006eda0bdedb982"}, // two surrogates, three bytes each
		{"\uFFFF", "0003efbfbf"},
	} {
		got, ok := appendUTF(nil, c.s)
		if !ok || hex.EncodeToString(got) != c.wire {
			t.Errorf("appendUTF(%q) = %x, %v; want %s", c.s, got, ok, c.wire)
		}
		wire, _ := hex.DecodeString(c.wire)
		r := &reader{b: wire, message: "test"}
		if s := r.utf("f"); r.err != nil || s != c.s {
			t.Errorf("utf(%s) = %q, %v; want %q", c.wire, s, r.err, c.s)
		}
	}
	// What DataInputStream.readUTF also accepts: a raw NUL, an overlong
	// two-byte form, a lone surrogate (no Go string holds it: U+FFFD).
	for wire, want := range map[string]string{"000100": "\x00", "0002c181": "A", "0003eda0bd": "\uFFFD", "0002c080": "\x00"} {
		b, _ := hex.DecodeString(wire)
		r := &reader{b: b, message: "test"}
		if s := r.utf("f"); r.err != nil || s != want {
			t.Errorf("utf(%s) = %q, %v; want %q", wire, s, r.err, want)
		}
	}
	for _, wire := range []string{"000180", "0001c3", "0002c341", "0002e282", "0003e2ac41", "0001f0", "0004f09f9982", "00ff61"} {
		b, _ := hex.DecodeString(wire)
		r := &reader{b: b, message: "test"}
		if s := r.utf("f"); r.err == nil {
			t.Errorf("utf(%s) = %q, want an error", wire, s)
		}
	}
	// Invalid UTF-8 in a Go string is written as U+FFFD; writeUTF's limit
	// counts encoded bytes.
	if got, _ := appendUTF(nil, "\xff"); hex.EncodeToString(got) != "0003efbfbd" {
		t.Errorf("appendUTF(\\xff) = %x", got)
	}
	if _, ok := appendUTF(nil, strings.Repeat("a", 0xFFFF)); !ok {
		t.Error("65535 bytes refused")
	}
	if _, ok := appendUTF(nil, strings.Repeat("\x00", 0x8000)); ok {
		t.Error("65536 encoded bytes accepted")
	}
}

func TestCompareJava(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "b", -1}, {"ab", "a", 1}, {"\U0001F642", "\uE000", -1}, {"\uE000", "\U0001F642", 1},
		{"\U0001F642", "\U0001F643", -1}, {"\uD7FF", "\U00010000", -1}, {"z", "é", -1},
	} {
		if got := compareJava(c.a, c.b); got != c.want {
			t.Errorf("compareJava(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestHostInfo(t *testing.T) {
	for in, want := range map[string]HostInfo{
		"localhost:8080":        {"localhost", 8080},
		"[::1]:8080":            {"::1", 8080},
		"::1:8080":              {"::1", 8080}, // the last colon ends the host
		"[fe80::1%eth0]:9":      {"fe80::1%eth0", 9},
		"http://host.example:1": {"host.example", 1},
		":0":                    {"", 0},
		"h:00080":               {"h", 80},
		"10.0.0.1:2147483647":   {"10.0.0.1", math.MaxInt32},
	} {
		got, err := ParseHostInfo(in)
		if err != nil || got == nil || *got != want {
			t.Errorf("ParseHostInfo(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, blank := range []string{"", " ", "\t\n"} {
		if got, err := ParseHostInfo(blank); got != nil || err != nil {
			t.Errorf("ParseHostInfo(%q) = %v, %v; want nil, nil", blank, got, err)
		}
	}
	for _, bad := range []string{"host", "host:", "host:port", "host:-1", "ho st:1", "hôst:1", "h:2147483648", " h:1"} {
		if got, err := ParseHostInfo(bad); !errors.Is(err, ErrEndpoint) {
			t.Errorf("ParseHostInfo(%q) = %v, %v; want ErrEndpoint", bad, got, err)
		}
	}
	for h, want := range map[HostInfo]string{{"h", 1}: "h:1", {"::1", 8080}: "[::1]:8080", {"", 0}: ":0"} {
		if got := h.String(); got != want {
			t.Errorf("%#v.String() = %q, want %q", h, got, want)
		}
	}
}

func TestErrorCodeString(t *testing.T) {
	for c, want := range map[ErrorCode]string{0: "NONE", 1: "INCOMPLETE_SOURCE_TOPIC_METADATA", 2: "VERSION_PROBING",
		3: "ASSIGNMENT_ERROR", 4: "SHUTDOWN_REQUESTED", 9: "ErrorCode(9)"} {
		if got := c.String(); got != want {
			t.Errorf("ErrorCode(%d) = %q, want %q", int32(c), got, want)
		}
	}
}

func TestProcessID(t *testing.T) {
	const s = "5c5b2f8e-8a1d-4c3e-9f7a-0123456789ab"
	if got := testPID.String(); got != s {
		t.Errorf("String() = %q", got)
	}
	if p, err := ParseProcessID(strings.ToUpper(s)); err != nil || p != testPID {
		t.Errorf("ParseProcessID = %v, %v", p, err)
	}
	for _, bad := range []string{"", "5c5b2f8e8a1d4c3e9f7a0123456789ab", "5c5b2f8e-8a1d-4c3e-9f7a-0123456789ag", "5c5b2f8e-8a1d-4c3e-9f7a_0123456789ab"} {
		if _, err := ParseProcessID(bad); err == nil {
			t.Errorf("ParseProcessID(%q) succeeded", bad)
		}
	}
}

func TestProcessIDCompareIsJavaUUIDOrder(t *testing.T) {
	// The first five in the order of a TreeSet<UUID> on OpenJDK 17 (the
	// most significant halves compared signed); the last three differ in
	// the least significant half only, which compareTo compares signed too.
	sorted := []string{
		"80000000-0000-0000-0000-000000000002",
		"ffffffff-ffff-ffff-ffff-fffffffffff0",
		"00000000-0000-0000-0000-000000000001",
		"0000000f-0000-0000-0000-000000000000",
		"12345678-9abc-def0-8234-56789abcdef0",
		"12345678-9abc-def0-0234-56789abcdef0",
		"12345678-9abc-def0-1234-56789abcdef0",
	}
	var ids []ProcessID
	for _, s := range slices.Backward(sorted) {
		p, err := ParseProcessID(s)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p)
	}
	slices.SortFunc(ids, ProcessID.Compare)
	for i, p := range ids {
		if p.String() != sorted[i] {
			t.Fatalf("sorted %v, want %v", ids, sorted)
		}
	}
}

// latestSubscription is a subscription in the shape Kafka Streams 4.4
// sends, to be shaped for lower versions with AtVersion.
func latestSubscription() SubscriptionInfo {
	return SubscriptionInfo{
		Version:                LatestSupportedVersion,
		LatestSupportedVersion: LatestSupportedVersion,
		ProcessID:              testPID,
		UserEndPoint:           "localhost:8080",
		TaskOffsetSums: []TaskOffsetSum{
			{TaskID{0, 0, ""}, LatestOffset}, {TaskID{1, 0, ""}, 1234}, {TaskID{1, 3, ""}, UnknownOffsetSum},
			{TaskID{0, 1, ""}, LatestOffset}, {TaskID{2, 2, ""}, math.MaxInt64},
		},
		UniqueField: 7,
		ErrorCode:   ErrorShutdownRequested,
		ClientTags:  []ClientTag{{"az", "eu-west-1a"}, {"rack", "r1"}},
	}
}

func TestSubscriptionAtVersionRoundTrip(t *testing.T) {
	latest := latestSubscription()
	for v := int32(1); v <= LatestSupportedVersion; v++ {
		s, err := latest.AtVersion(v)
		if err != nil {
			t.Fatalf("v%d: %v", v, err)
		}
		b, err := s.Encode()
		if err != nil {
			t.Fatalf("v%d: encode: %v", v, err)
		}
		got, err := DecodeSubscriptionInfo(b)
		if err != nil {
			t.Fatalf("v%d: decode: %v", v, err)
		}
		if !reflect.DeepEqual(*got, s) {
			t.Errorf("v%d: decoded %+v, want %+v", v, *got, s)
		}
		wantLatest := int32(LatestSupportedVersion)
		if v < 3 {
			wantLatest = UnknownVersion
		}
		if got.LatestSupportedVersion != wantLatest {
			t.Errorf("v%d: latestSupportedVersion %d", v, got.LatestSupportedVersion)
		}
		// Every version keeps what the member has state for: old ones as
		// running (LatestOffset) or not (UnknownOffsetSum).
		sums := got.OffsetSums()
		if len(sums) != len(latest.TaskOffsetSums) {
			t.Errorf("v%d: offset sums %v", v, sums)
		}
		if v < 7 && (len(got.PrevTasks) != 2 || len(got.StandbyTasks) != 3) {
			t.Errorf("v%d: prev %v, standby %v", v, got.PrevTasks, got.StandbyTasks)
		}
	}
	named := latestSubscription()
	named.TaskOffsetSums = append(named.TaskOffsetSums, TaskOffsetSum{TaskID{3, 1, "topo"}, 5})
	for v := int32(1); v < MinNamedTopologyVersion; v++ {
		if _, err := named.AtVersion(v); !errors.Is(err, ErrNotEncodable) {
			t.Errorf("v%d with a named topology: %v", v, err)
		}
	}
	if _, err := named.AtVersion(12); !errors.Is(err, ErrNotEncodable) {
		t.Errorf("AtVersion(12): %v", err)
	}
}

// TestSubscriptionGroupsOffsetSumsByRun pins versions 7-9's grouping: one
// group per run of a sub-topology, so any order survives a round trip.
func TestSubscriptionGroupsOffsetSumsByRun(t *testing.T) {
	s := SubscriptionInfo{Version: 8, LatestSupportedVersion: 11, TaskOffsetSums: []TaskOffsetSum{
		{TaskID{1, 0, ""}, 1}, {TaskID{1, 1, ""}, 2}, {TaskID{0, 0, ""}, 3}, {TaskID{1, 2, ""}, 4},
	}}
	b, err := s.Encode()
	if err != nil {
		t.Fatal(err)
	}
	// version, latest, uuid, userEndPoint (empty), then 3 groups.
	groups := b[4+4+16+4:]
	if want := "00000003" + "00000001" + "00000002"; hex.EncodeToString(groups[:12]) != want {
		t.Errorf("groups start %x, want %s", groups[:12], want)
	}
	got, err := DecodeSubscriptionInfo(b)
	if err != nil || !reflect.DeepEqual(got.TaskOffsetSums, s.TaskOffsetSums) {
		t.Errorf("decoded %+v, %v", got, err)
	}
}

func TestSubscriptionEncodeRefuses(t *testing.T) {
	base := func(v int32) SubscriptionInfo {
		latest := latestSubscription()
		s, err := latest.AtVersion(v)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	cases := map[string]SubscriptionInfo{}
	s := base(2)
	s.LatestSupportedVersion = 11
	cases["latestSupportedVersion below 3"] = s
	s = base(5)
	s.LatestSupportedVersion = 4
	cases["latestSupportedVersion below version"] = s
	s = base(5)
	s.LatestSupportedVersion = UnknownVersion
	cases["unknown latestSupportedVersion at 5"] = s
	s = base(1)
	s.UserEndPoint = "h:1"
	cases["userEndPoint at 1"] = s
	s = base(7)
	s.PrevTasks = []TaskID{{0, 0, ""}}
	cases["prevTasks at 7"] = s
	s = base(6)
	s.TaskOffsetSums = []TaskOffsetSum{{TaskID{0, 0, ""}, 1}}
	cases["taskOffsetSums at 6"] = s
	s = base(6)
	s.PrevTasks = []TaskID{{0, 0, "n"}}
	cases["named prev task"] = s
	s = base(9)
	s.TaskOffsetSums = []TaskOffsetSum{{TaskID{0, 0, "n"}, 1}}
	cases["named topology at 9"] = s
	s = base(11)
	s.TaskOffsetSums = []TaskOffsetSum{{TaskID{0, 0, strings.Repeat("n", 0x8000)}, 1}}
	cases["named topology too long"] = s
	s = base(7)
	s.UniqueField = 1
	cases["uniqueField at 7"] = s
	s = base(8)
	s.ErrorCode = 1
	cases["errorCode at 8"] = s
	s = base(10)
	s.ClientTags = []ClientTag{{"a", "b"}}
	cases["clientTags at 10"] = s
	cases["version 0"] = SubscriptionInfo{}
	cases["version 12"] = SubscriptionInfo{Version: 12, LatestSupportedVersion: 12}
	for name, s := range cases {
		if b, err := s.Encode(); !errors.Is(err, ErrNotEncodable) {
			t.Errorf("%s: Encode() = %x, %v; want ErrNotEncodable", name, b, err)
		}
	}
}

func TestSubscriptionFuture(t *testing.T) {
	s, err := DecodeSubscriptionInfo([]byte{0, 0, 0, 12, 0, 0, 0, 13, 0xde, 0xad})
	if err != nil || !s.Future() || s.Version != 12 || s.LatestSupportedVersion != 13 {
		t.Fatalf("future: %+v, %v", s, err)
	}
	if !reflect.DeepEqual(*s, SubscriptionInfo{Version: 12, LatestSupportedVersion: 13}) {
		t.Errorf("future decoded more than its versions: %+v", s)
	}
	// Kafka validates the versions of a future subscription too.
	for _, b := range [][]byte{{0, 0, 0, 12, 0, 0, 0, 11}, {0, 0, 0, 12, 0xff, 0xff, 0xff, 0xff}} {
		if _, err := DecodeSubscriptionInfo(b); !errors.Is(err, ErrMalformed) {
			t.Errorf("%x: %v, want ErrMalformed", b, err)
		}
	}
	if _, err := DecodeSubscriptionInfo([]byte{0, 0, 0, 12, 0, 0}); !errors.Is(err, ErrTruncated) {
		t.Errorf("short future: %v", err)
	}
}

func TestDecodeErrorsNameVersionFieldAndOffset(t *testing.T) {
	s := SubscriptionInfo{Version: 11, LatestSupportedVersion: 11, ProcessID: testPID,
		TaskOffsetSums: []TaskOffsetSum{{TaskID{0, 0, ""}, 1}}}
	b, err := s.Encode()
	if err != nil {
		t.Fatal(err)
	}
	// version 4 + latest 4 + uuid 16 + userEndPoint length 4 = 28: the
	// offset sums' count; the first task starts at 32.
	for _, c := range []struct {
		cut  int
		want string
	}{
		{0, "assignment: decode SubscriptionInfo: truncated at byte 0 reading version"},
		{6, "assignment: decode SubscriptionInfo v11: truncated at byte 4 reading latestSupportedVersion"},
		{20, "assignment: decode SubscriptionInfo v11: truncated at byte 8 reading processId"},
		{30, "assignment: decode SubscriptionInfo v11: truncated at byte 28 reading taskOffsetSums"},
		{37, "assignment: decode SubscriptionInfo v11: truncated: count 1 needs 18 bytes, 5 left at byte 32 reading taskOffsetSums"},
		{len(b) - 2, "assignment: decode SubscriptionInfo v11: truncated at byte " + strconv.Itoa(len(b)-4) + " reading clientTags"},
	} {
		_, err := DecodeSubscriptionInfo(b[:c.cut])
		var de *DecodeError
		if !errors.As(err, &de) || !errors.Is(err, ErrTruncated) || err.Error() != c.want {
			t.Errorf("cut at %d: %v\n want %s", c.cut, err, c.want)
		}
	}
	for every := range len(b) {
		if _, err := DecodeSubscriptionInfo(b[:every]); !errors.Is(err, ErrTruncated) {
			t.Errorf("cut at %d: %v", every, err)
		}
	}

	for _, c := range []struct {
		hex  string
		want error
		msg  string
	}{
		{"00000000", ErrUnsupportedVersion, "assignment: decode AssignmentInfo: unsupported version 0 (latest supported 11) at byte 0 reading version"},
		{"0000000c", ErrUnsupportedVersion, ""},
		{"ffffffff", ErrUnsupportedVersion, ""},
		{"00000001" + "ffffffff", ErrMalformed, "assignment: decode AssignmentInfo v1: negative count -1 at byte 4 reading activeTasks"},
		{"00000001" + "7fffffff", ErrTruncated, ""},
		{"00000001" + "00000000" + "00000001" + "00000000" + "00000000" + "00000001" + "0002c3", ErrTruncated, ""},
		{"00000001" + "00000000" + "00000001" + "00000000" + "00000000" + "00000001" + "0001c0" + "00000000", ErrMalformed, ""},
		// v5: the host map names topic index 1, which the dictionary lacks.
		{"00000005" + "0000000b" + "00000000" + "00000000" + "00000001" + "00000000" + "000174" + "00000001" + "000168" + "00000001" + "00000001" + "00000001" + "00000000" + "00000000", ErrMalformed,
			"assignment: decode AssignmentInfo v5: topic index 1 is not in the topic dictionary at byte 42 reading partitionsByHost"},
	} {
		b, _ := hex.DecodeString(c.hex)
		_, err := DecodeAssignmentInfo(b)
		if !errors.Is(err, c.want) || (c.msg != "" && err.Error() != c.msg) {
			t.Errorf("%s: %v, want %v %s", c.hex, err, c.want, c.msg)
		}
	}
	for _, c := range []struct {
		hex  string
		want error
	}{
		{"00000000", ErrUnsupportedVersion},
		{"ffffffff", ErrUnsupportedVersion},
		{"00000003" + "00000002" + hex.EncodeToString(testPID[:]), ErrTruncated},
		// v3 with latestSupportedVersion 2, complete otherwise.
		{"00000003" + "00000002" + hex.EncodeToString(testPID[:]) + "00000000" + "00000000" + "00000000", ErrMalformed},
		{"00000001" + hex.EncodeToString(testPID[:]) + "ffffffff", ErrMalformed},
		{"00000002" + hex.EncodeToString(testPID[:]) + "00000000" + "00000000" + "ffffffff", ErrMalformed},
		{"00000001" + hex.EncodeToString(testPID[:]) + "000f4241", ErrTruncated},
	} {
		b, _ := hex.DecodeString(c.hex)
		if _, err := DecodeSubscriptionInfo(b); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.hex, err, c.want)
		}
	}
}

func populatedAssignment(v int32) *AssignmentInfo {
	a := &AssignmentInfo{
		Version:                  v,
		CommonlySupportedVersion: LatestSupportedVersion,
		ActiveTasks:              []TaskID{{0, 0, ""}, {0, 0, ""}, {1, 1, ""}},
		StandbyTasks: map[TaskID][]TopicPartition{
			{2, 0, ""}: {{"app-store-changelog", 0}},
			{2, 1, ""}: {{"app-store-changelog", 1}, {"app-repartition", 1}},
		},
		PartitionsByHost: map[HostInfo][]TopicPartition{
			{"host1", 8080}: {{"in", 0}, {"other", 0}},
			{"::1", 9000}:   {{"in", 1}},
		},
		StandbyPartitionsByHost: map[HostInfo][]TopicPartition{{"host2", 1}: {{"app-store-changelog", 0}}},
		ErrorCode:               ErrorIncompleteSourceTopicMetadata,
		NextRebalanceMs:         0,
	}
	if v < 3 {
		a.CommonlySupportedVersion = UnknownVersion
	}
	if v < 2 {
		a.PartitionsByHost = nil
	}
	if v < 6 {
		a.StandbyPartitionsByHost = nil
	}
	if v < 4 {
		a.ErrorCode = 0
	}
	if v < 7 {
		a.NextRebalanceMs = NoNextRebalance
	}
	if v >= MinNamedTopologyVersion {
		a.ActiveTasks = append(a.ActiveTasks, TaskID{0, 2, "topo🙂"})
	}
	return a
}

func TestAssignmentRoundTrip(t *testing.T) {
	for v := int32(1); v <= LatestSupportedVersion; v++ {
		a := populatedAssignment(v)
		b, err := a.Encode()
		if err != nil {
			t.Fatalf("v%d: %v", v, err)
		}
		got, err := DecodeAssignmentInfo(b)
		if err != nil {
			t.Fatalf("v%d: %v", v, err)
		}
		if !reflect.DeepEqual(got, a) {
			t.Errorf("v%d: decoded %+v\nwant %+v", v, got, a)
		}
		again, _ := got.Encode()
		if !bytes.Equal(again, b) {
			t.Errorf("v%d: encoding is not deterministic: %x vs %x", v, again, b)
		}
	}
	// What a version lacks is left out, as Kafka Streams leaves it out.
	full := populatedAssignment(LatestSupportedVersion)
	full.ActiveTasks = full.ActiveTasks[:3]
	full.Version = 1
	b, err := full.Encode()
	if err != nil {
		t.Fatal(err)
	}
	got, _ := DecodeAssignmentInfo(b)
	if want := populatedAssignment(1); !reflect.DeepEqual(got, want) {
		t.Errorf("v1 of a full assignment: %+v, want %+v", got, want)
	}
}

func TestAssignmentEncodeRefuses(t *testing.T) {
	named := populatedAssignment(LatestSupportedVersion)
	named.Version = 9
	if _, err := named.Encode(); !errors.Is(err, ErrNotEncodable) || !strings.Contains(err.Error(), "named topologies are not compatible with protocol version 9") {
		t.Errorf("named topology at 9: %v", err)
	}
	long := &AssignmentInfo{Version: 2, PartitionsByHost: map[HostInfo][]TopicPartition{{strings.Repeat("h", 0x10000), 1}: nil}}
	if _, err := long.Encode(); !errors.Is(err, ErrNotEncodable) {
		t.Errorf("long host: %v", err)
	}
	for _, v := range []int32{0, 12} {
		if _, err := (&AssignmentInfo{Version: v}).Encode(); !errors.Is(err, ErrNotEncodable) {
			t.Errorf("version %d: %v", v, err)
		}
	}
}

// TestAssignmentDecodeSets pins Java's collection semantics: duplicate
// partitions of a set collapse to the first, a duplicate key keeps the last
// entry.
func TestAssignmentDecodeSets(t *testing.T) {
	wire := "00000002" + // version
		"00000000" + // no active tasks
		"00000002" + // two standby entries for task 0_0
		"0000000000000000" + "00000002" + "000161" + "00000001" + "000161" + "00000001" +
		"0000000000000000" + "00000001" + "000162" + "00000002" +
		"00000001" + "000168" + "00000001" + "00000000" // host h:1, no partitions
	b, _ := hex.DecodeString(wire)
	a, err := DecodeAssignmentInfo(b)
	if err != nil {
		t.Fatal(err)
	}
	want := map[TaskID][]TopicPartition{{0, 0, ""}: {{"b", 2}}}
	if !reflect.DeepEqual(a.StandbyTasks, want) {
		t.Errorf("standby %v, want %v", a.StandbyTasks, want)
	}
	var set partitionSet
	for i := range 20 {
		set.add(TopicPartition{"t", int32(i % 10)})
	}
	if len(set.list) != 10 || set.list[9] != (TopicPartition{"t", 9}) {
		t.Errorf("set %v", set.list)
	}
	if ps, ok := a.PartitionsByHost[HostInfo{"h", 1}]; !ok || len(ps) != 0 {
		t.Errorf("host map %v", a.PartitionsByHost)
	}
}

func TestPairActiveTasks(t *testing.T) {
	info := &AssignmentInfo{Version: 11, ActiveTasks: []TaskID{{0, 0, ""}, {0, 1, ""}, {1, 0, ""}, {0, 0, ""}, {2, 0, ""}, {2, 1, ""}}}
	// Java's order: "\U0001F642" (surrogates D83D...) before "\uE000".
	parts := []TopicPartition{{"\uE000", 1}, {"b", 0}, {"a", 1}, {"a", 0}, {"\U0001F642", 0}, {"c", 0}}
	orig := slices.Clone(parts)
	got, err := PairActiveTasks(parts, info)
	if err != nil {
		t.Fatal(err)
	}
	want := map[TaskID][]TopicPartition{
		{0, 0, ""}: {{"a", 0}, {"c", 0}},
		{0, 1, ""}: {{"a", 1}},
		{1, 0, ""}: {{"b", 0}},
		{2, 0, ""}: {{"\U0001F642", 0}},
		{2, 1, ""}: {{"\uE000", 1}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("paired %v\nwant %v", got, want)
	}
	if !slices.Equal(parts, orig) {
		t.Error("PairActiveTasks sorted its argument")
	}
	_, err = PairActiveTasks(parts[:4], info)
	if !errors.Is(err, ErrActiveTaskCount) || !strings.Contains(err.Error(), "number of assigned partitions 4 is not equal to the number of active taskIds 6") {
		t.Errorf("mismatch: %v", err)
	}
}

func TestMemberMetadataRoundTrip(t *testing.T) {
	info := latestSubscription()
	m := &MemberMetadata{
		Topics:          []string{"in", "other"},
		Info:            &info,
		OwnedPartitions: []TopicPartition{{"other", 0}, {"in", 2}, {"in", 0}},
		Generation:      12,
		Rack:            "rack-a",
	}
	b, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	var raw kmsg.ConsumerMemberMetadata
	if err := raw.ReadFrom(b); err != nil {
		t.Fatal(err)
	}
	if raw.Version != 3 || raw.Generation != 12 || raw.Rack == nil || *raw.Rack != "rack-a" ||
		!reflect.DeepEqual(raw.OwnedPartitions, []kmsg.ConsumerMemberMetadataOwnedPartition{{Topic: "in", Partitions: []int32{0, 2}}, {Topic: "other", Partitions: []int32{0}}}) {
		t.Errorf("kmsg reads %+v", raw)
	}
	got, err := DecodeMemberMetadata(b)
	if err != nil {
		t.Fatal(err)
	}
	want := *m
	want.OwnedPartitions = []TopicPartition{{"in", 0}, {"in", 2}, {"other", 0}}
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("decoded %+v\nwant %+v", got, want)
	}

	// An old consumer protocol version: no owned partitions, generation -1, no rack.
	raw = kmsg.NewConsumerMemberMetadata()
	raw.Topics = []string{"in"}
	raw.UserData, _ = info.Encode()
	old, err := DecodeMemberMetadata(raw.AppendTo(nil))
	if err != nil || old.Generation != -1 || old.Rack != "" || old.OwnedPartitions != nil {
		t.Errorf("v0: %+v, %v", old, err)
	}
	raw.UserData = nil
	if _, err := DecodeMemberMetadata(raw.AppendTo(nil)); !errors.Is(err, ErrTruncated) {
		t.Errorf("no user data: %v", err)
	}
	if _, err := DecodeMemberMetadata([]byte{0, 3, 0}); err == nil {
		t.Error("truncated consumer protocol decoded")
	}
}

func TestMemberAssignmentRoundTrip(t *testing.T) {
	info := populatedAssignment(LatestSupportedVersion)
	m := &MemberAssignment{Partitions: []TopicPartition{{"other", 0}, {"in", 1}, {"in", 0}, {"x", 0}}, Info: info}
	b, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	var raw kmsg.ConsumerMemberAssignment
	if err := raw.ReadFrom(b); err != nil || raw.Version != 3 || len(raw.Topics) != 3 {
		t.Fatalf("kmsg reads %+v, %v", raw, err)
	}
	got, err := DecodeMemberAssignment(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Info, info) || !slices.Equal(got.Partitions, []TopicPartition{{"in", 0}, {"in", 1}, {"other", 0}, {"x", 0}}) {
		t.Errorf("decoded %+v", got)
	}
	tasks, err := PairActiveTasks(got.Partitions, got.Info)
	if err != nil {
		t.Fatal(err)
	}
	if want := []TopicPartition{{"in", 0}, {"in", 1}}; !slices.Equal(tasks[TaskID{0, 0, ""}], want) {
		t.Errorf("task 0_0: %v", tasks[TaskID{0, 0, ""}])
	}
	if _, err := DecodeMemberAssignment([]byte{0, 3}); err == nil {
		t.Error("truncated assignment decoded")
	}
}
