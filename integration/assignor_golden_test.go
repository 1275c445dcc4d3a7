package integration

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/assignment"
)

// jarCase is one input of the jar's assignor-vectors decode mode.
type jarCase struct {
	name  string
	kind  string // "subscription" or "assignment"
	bytes []byte
	// value is what the bytes encode (nil for invalid bytes, which both
	// sides must refuse).
	value json.Marshaler
}

// TestSubscriptionAndAssignmentGoldenJar encodes SubscriptionInfos and
// AssignmentInfos in Go at every version 1-11 and has Kafka Streams 4.4's
// own classes (the reference jar's assignor-vectors decode mode) decode
// them: the jar must read the same values, encode a SubscriptionInfo back
// to the same bytes and an AssignmentInfo to bytes Go reads as the same
// value. Truncated encodings must be refused by both. It needs a JDK 17
// and Maven, no broker. (internal/assignment's
// TestSubscriptionAndAssignmentGolden checks the other direction on bytes
// the jar wrote.)
func TestSubscriptionAndAssignmentGoldenJar(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	jar := assignorJar(ctx, t)
	cases := assignorCases(t)

	var in bytes.Buffer
	for _, c := range cases {
		in.WriteString(c.kind + " " + hex.EncodeToString(c.bytes) + "\n")
	}
	file := filepath.Join(t.TempDir(), "encodings.txt")
	if err := os.WriteFile(file, in.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append(slices.Clone(shortLivedJVM), "-Xmx256m", "-jar", jar, "assignor-vectors", "decode", file)
	cmd := exec.CommandContext(ctx, "java", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("assignor-vectors decode: %v\n%s", err, tail(stderr.String(), 20))
	}
	var answers []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		answers = append(answers, sc.Text())
	}
	if len(answers) != len(cases) {
		t.Fatalf("the jar answered %d lines for %d cases\n%s", len(answers), len(cases), tail(stderr.String(), 20))
	}

	valid, refused := 0, 0
	for i, c := range cases {
		var ans struct {
			Decoded   json.RawMessage `json:"decoded"`
			Reencoded string          `json:"reencoded"`
			Error     string          `json:"error"`
		}
		if err := json.Unmarshal([]byte(answers[i]), &ans); err != nil {
			t.Fatalf("%s: answer %q: %v", c.name, answers[i], err)
		}
		if c.value == nil {
			refused++
			var goErr error
			if c.kind == "subscription" {
				_, goErr = assignment.DecodeSubscriptionInfo(c.bytes)
			} else {
				_, goErr = assignment.DecodeAssignmentInfo(c.bytes)
			}
			if ans.Error == "" || goErr == nil {
				t.Errorf("%s: %x: the jar says %q, Go says %v; want both to refuse", c.name, c.bytes, answers[i], goErr)
			}
			continue
		}
		valid++
		if ans.Error != "" {
			t.Errorf("%s: the jar refuses %x: %s", c.name, c.bytes, ans.Error)
			continue
		}
		if ok, goJSON := sameJSONTree(t, c.value, ans.Decoded); !ok {
			t.Errorf("%s: %x\n Go encoded %s\nthe jar read %s", c.name, c.bytes, goJSON, ans.Decoded)
		}
		re, err := hex.DecodeString(ans.Reencoded)
		if err != nil {
			t.Fatalf("%s: reencoded %q: %v", c.name, ans.Reencoded, err)
		}
		switch v := c.value.(type) {
		case *assignment.SubscriptionInfo:
			if !v.Future() && !bytes.Equal(re, c.bytes) {
				t.Errorf("%s: the jar encodes what it read as\n%x\nGo wrote\n%x", c.name, re, c.bytes)
			}
		case *assignment.AssignmentInfo:
			back, err := assignment.DecodeAssignmentInfo(re)
			if err != nil {
				t.Errorf("%s: Go cannot read the jar's encoding %x: %v", c.name, re, err)
			} else if ok, got := sameJSONTree(t, back, ans.Decoded); !ok {
				t.Errorf("%s: the jar's encoding reads in Go as\n%s\nthe jar read\n%s", c.name, got, ans.Decoded)
			}
		}
	}
	t.Logf("%d encodings read alike by Go and Kafka Streams 4.4, %d invalid ones refused by both", valid, refused)
}

// sameJSONTree reports whether v marshals to the JSON value want, numbers
// compared exactly.
func sameJSONTree(t *testing.T, v any, want []byte) (bool, string) {
	t.Helper()
	got, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	tree := func(b []byte) any {
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		var x any
		if err := d.Decode(&x); err != nil {
			t.Fatalf("parsing %s: %v", b, err)
		}
		return x
	}
	return reflect.DeepEqual(tree(got), tree(want)), string(got)
}

var goldenPID = assignment.ProcessID{0xa1, 0xb2, 0xc3, 0xd4, 0xe5, 0xf6, 0x47, 0x18, 0x89, 0x9a, 0xab, 0xbc, 0xcd, 0xde, 0xef, 0xf0}

// assignorCases are the Go encodings the jar reads, of every version, and
// truncations of some of them.
func assignorCases(t *testing.T) []jarCase {
	t.Helper()
	var cases []jarCase
	tid := func(sub, p int32, named string) assignment.TaskID {
		return assignment.TaskID{Subtopology: sub, Partition: p, NamedTopology: named}
	}
	subs := map[string]assignment.SubscriptionInfo{
		"empty": {LatestSupportedVersion: assignment.LatestSupportedVersion, ProcessID: goldenPID},
		"populated": {
			LatestSupportedVersion: assignment.LatestSupportedVersion, ProcessID: goldenPID,
			UserEndPoint: "stoat-1.example:8080",
			TaskOffsetSums: []assignment.TaskOffsetSum{
				{Task: tid(0, 0, ""), OffsetSum: assignment.LatestOffset}, {Task: tid(1, 4, ""), OffsetSum: 0},
				{Task: tid(0, 3, ""), OffsetSum: 99}, {Task: tid(2, 1, ""), OffsetSum: math.MaxInt64},
				{Task: tid(1, 0, ""), OffsetSum: assignment.LatestOffset}, {Task: tid(0, 1, ""), OffsetSum: assignment.UnknownOffsetSum},
			},
			UniqueField: -128, ErrorCode: assignment.ErrorShutdownRequested,
			ClientTags: []assignment.ClientTag{{Key: "zone", Value: "eu-1"}, {Key: "ключ🙂", Value: "日本\x00x"}, {Key: "", Value: ""}},
		},
		"unicode-endpoint": {
			LatestSupportedVersion: assignment.LatestSupportedVersion, ProcessID: goldenPID,
			UserEndPoint: "hôte-🙂.example:1", UniqueField: 127, ErrorCode: assignment.ErrorAssignment,
			TaskOffsetSums: []assignment.TaskOffsetSum{{Task: tid(7, 7, ""), OffsetSum: 1}},
		},
	}
	var many []assignment.TaskOffsetSum
	for i := range 40 {
		sum := int64(i) * 1000
		if i%5 == 0 {
			sum = assignment.LatestOffset
		}
		many = append(many, assignment.TaskOffsetSum{Task: tid(int32(i%3), int32(i), ""), OffsetSum: sum})
	}
	subs["many"] = assignment.SubscriptionInfo{LatestSupportedVersion: assignment.LatestSupportedVersion, ProcessID: goldenPID,
		UserEndPoint: "[::1]:9090", TaskOffsetSums: many, UniqueField: 3}
	named := assignment.SubscriptionInfo{LatestSupportedVersion: assignment.LatestSupportedVersion, ProcessID: goldenPID,
		TaskOffsetSums: []assignment.TaskOffsetSum{
			{Task: tid(0, 0, "topo-a"), OffsetSum: assignment.LatestOffset}, {Task: tid(0, 0, ""), OffsetSum: 5},
			{Task: tid(1, 2, "名🙂"), OffsetSum: 12}, {Task: tid(3, 1, "\uE000"), OffsetSum: assignment.UnknownOffsetSum},
		}}
	for v := int32(1); v <= assignment.LatestSupportedVersion; v++ {
		for _, name := range sortedNames(subs) {
			latest := subs[name]
			addSubscription(t, &cases, name, latest, v, false)
			if v >= 3 {
				latest.LatestSupportedVersion = v
				addSubscription(t, &cases, name+"-latest-is-version", latest, v, false)
			}
		}
		if v >= assignment.MinNamedTopologyVersion {
			addSubscription(t, &cases, "named", named, v, true)
		}
	}
	future := []struct {
		name string
		hex  string
	}{{"future-v12", "0000000c0000000c"}, {"future-v14-trailing", "0000000e00000014deadbeef"}}
	for _, f := range future {
		b, _ := hex.DecodeString(f.hex)
		s, err := assignment.DecodeSubscriptionInfo(b)
		if err != nil || !s.Future() {
			t.Fatalf("%s: %+v, %v", f.name, s, err)
		}
		cases = append(cases, jarCase{name: f.name, kind: "subscription", bytes: b, value: s})
	}
	for _, bad := range []string{"", "000000", "00000000", "0000000c", "0000000c0000000b", "00000003000000020000"} {
		b, _ := hex.DecodeString(bad)
		cases = append(cases, jarCase{name: "invalid-" + bad, kind: "subscription", bytes: b})
	}

	hosts := map[assignment.HostInfo][]assignment.TopicPartition{
		{Host: "stoat-1", Port: 8080}: {{Topic: "input", Partition: 0}, {Topic: "input", Partition: 2}, {Topic: "other", Partition: 1}},
		{Host: "::1", Port: 9000}:     {{Topic: "tópico-ü", Partition: 0}, {Topic: "主题🙂", Partition: 7}},
		{Host: "hôte-🙂", Port: 1}:     {{Topic: "nul\x00topic", Partition: 3}},
		{Host: "", Port: 0}:           nil,
	}
	standbyHosts := map[assignment.HostInfo][]assignment.TopicPartition{
		{Host: "stoat-2", Port: 8081}: {{Topic: "app-store-changelog", Partition: 0}, {Topic: "input", Partition: 2}},
	}
	for v := int32(1); v <= assignment.LatestSupportedVersion; v++ {
		common := int32(assignment.LatestSupportedVersion)
		if v < 3 {
			common = assignment.UnknownVersion
		}
		base := func() assignment.AssignmentInfo {
			a := assignment.AssignmentInfo{Version: v, CommonlySupportedVersion: common, NextRebalanceMs: assignment.NoNextRebalance}
			return a
		}
		as := map[string]assignment.AssignmentInfo{"empty": base()}
		p := base()
		p.ActiveTasks = []assignment.TaskID{tid(0, 0, ""), tid(0, 0, ""), tid(1, 2, ""), tid(0, 1, ""), tid(2, 0, "")}
		p.StandbyTasks = map[assignment.TaskID][]assignment.TopicPartition{
			tid(3, 0, ""): {{Topic: "app-store-changelog", Partition: 0}},
			tid(3, 1, ""): {{Topic: "app-store-changelog", Partition: 1}, {Topic: "app-repartition", Partition: 1}, {Topic: "\U0001F642", Partition: 1}},
			tid(4, 9, ""): nil,
		}
		if v >= 2 {
			p.PartitionsByHost = hosts
		}
		if v >= 6 {
			p.StandbyPartitionsByHost = standbyHosts
		}
		if v >= 7 {
			p.NextRebalanceMs = 1_700_000_000_000
		}
		as["populated"] = p
		for code := assignment.ErrorIncompleteSourceTopicMetadata; code <= assignment.ErrorShutdownRequested && v >= 4; code++ {
			e := base()
			e.ErrorCode = code
			as["error-"+code.String()] = e
		}
		if v >= 3 {
			c := base()
			c.CommonlySupportedVersion = v
			c.ActiveTasks = []assignment.TaskID{tid(0, 0, "")}
			as["commonly-supported-is-version"] = c
		}
		if v >= 7 {
			n := base()
			n.NextRebalanceMs = 0
			as["rebalance-now"] = n
			n.NextRebalanceMs = -1
			as["rebalance-negative"] = n
		}
		if v >= assignment.MinNamedTopologyVersion {
			n := base()
			n.ActiveTasks = []assignment.TaskID{tid(0, 0, "topo-a"), tid(0, 1, "topo-a"), tid(1, 0, ""), tid(2, 0, "名🙂")}
			n.StandbyTasks = map[assignment.TaskID][]assignment.TopicPartition{
				tid(2, 1, "名🙂"): {{Topic: "named-changelog", Partition: 1}},
				tid(2, 1, ""):   {{Topic: "plain-changelog", Partition: 1}},
			}
			as["named"] = n
		}
		for _, name := range sortedNames(as) {
			a := as[name]
			b, err := a.Encode()
			if err != nil {
				t.Fatalf("assignment v%d %s: %v", v, name, err)
			}
			cases = append(cases, jarCase{name: "assignment-v" + itoa(v) + "-" + name, kind: "assignment", bytes: b, value: &a})
			if name == "populated" {
				for _, cut := range []int{len(b) / 2, len(b) - 1} {
					cases = append(cases, jarCase{name: "assignment-v" + itoa(v) + "-truncated-" + itoa(int32(cut)), kind: "assignment", bytes: b[:cut]})
				}
			}
		}
	}
	for _, bad := range []string{"", "00000000", "0000000c", "00000001ffffffff"} {
		b, _ := hex.DecodeString(bad)
		cases = append(cases, jarCase{name: "invalid-" + bad, kind: "assignment", bytes: b})
	}
	return cases
}

// addSubscription adds latest shaped for version v, and truncations of the
// populated ones.
func addSubscription(t *testing.T, cases *[]jarCase, name string, latest assignment.SubscriptionInfo, v int32, named bool) {
	t.Helper()
	s, err := latest.AtVersion(v)
	if err != nil {
		t.Fatalf("subscription v%d %s: %v", v, name, err)
	}
	b, err := s.Encode()
	if err != nil {
		t.Fatalf("subscription v%d %s: %v", v, name, err)
	}
	full := "subscription-v" + itoa(v) + "-" + name
	*cases = append(*cases, jarCase{name: full, kind: "subscription", bytes: b, value: &s})
	if strings.HasPrefix(name, "populated") || named {
		for _, cut := range []int{len(b) / 2, len(b) - 1} {
			*cases = append(*cases, jarCase{name: full + "-truncated-" + itoa(int32(cut)), kind: "subscription", bytes: b[:cut]})
		}
	}
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

func itoa(n int32) string { return strconv.Itoa(int(n)) }

// assignorJar is the reference jar for the assignor comparisons, which
// need a JDK 17 and Maven but no broker: without them the test fails under
// CI=true and is skipped elsewhere.
func assignorJar(ctx context.Context, t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"java", "mvn"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s not found: the assignor comparison needs a JDK 17 and Maven", tool)
			}
			t.Skipf("%s not found: the assignor comparison needs a JDK 17 and Maven", tool)
		}
	}
	jar, err := ReferenceJar(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return jar
}
