package integration

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/internal/sidecartest"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
)

// The word count's store, and the headers of the StoatFlow HTTP API
// (sidecar/internal/httpapi).
const (
	iqStore           = "KSTREAM-AGGREGATE-STATE-STORE-0000000003"
	iqInstanceHeader  = "X-StoatFlow-Instance"
	iqForwardedHeader = "X-StoatFlow-Forwarded-By"
	iqPartitions      = 4
)

// iqLevels are the isolation levels every key is queried at.
var iqLevels = []string{"READ_COMMITTED", "READ_UNCOMMITTED"}

// TestQueriesAcrossInstances: every instance of an application answers
// every key, whichever instance hosts it.
//
// Three StoatFlow sidecars run the word count in one group under
// exactly_once_v2, each with its own state directory and HTTP API at its
// application.server; once the group is stable and every count committed,
// every word is asked of every instance at both isolation levels, with
// stoatflow.query.remote=forward on one such trio and redirect on another.
// Every answer is the word's final count, from the instance whose store
// holds it (a forward says which host answered, a redirect names it), and
// every instance's /stores/{store}/metadata/{key} names that instance as
// the key's active host, with the same standby hosts and partition.
//
// Two Kafka Streams 4.4 instances and one StoatFlow sidecar of one
// application then give the same metadata: the sidecar's key metadata and
// /metadata equal what Kafka Streams' queryMetadataForKey and
// metadataForAllStreamsClients answer on each JVM.
//
// Every instance of both engines leaves the group as it closes.
func TestQueriesAcrossInstances(t *testing.T) {
	t.Parallel()
	bootstrap := testkafka.Bootstrap(t)
	bin := sidecartest.Build(t, "../cmd/sidecar")
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	props := filepath.Join(root, "examples", "wordcount", "streams.properties")
	for _, mode := range []string{"forward", "redirect"} {
		t.Run("remote="+mode, func(t *testing.T) {
			t.Parallel()
			queryTrio(t, bootstrap, bin, props, mode)
		})
	}
	t.Run("mixed", func(t *testing.T) {
		t.Parallel()
		mixedMetadata(t, bootstrap, bin, props)
	})
}

// iqWords returns the words the tests count and query, and lines holding
// them: word i occurs i+1 times, so that a count answered for another key
// is wrong. Every partition holds some word.
func iqWords(t *testing.T) (words, lines []string) {
	t.Helper()
	var occ []string
	for i := range 40 {
		w := fmt.Sprintf("word%02d", i)
		words = append(words, w)
		for range i + 1 {
			occ = append(occ, w)
		}
	}
	rand.New(rand.NewPCG(7, 11)).Shuffle(len(occ), func(i, j int) { occ[i], occ[j] = occ[j], occ[i] })
	for len(occ) > 0 {
		n := min(5, len(occ))
		lines = append(lines, strings.Join(occ[:n], " "))
		occ = occ[n:]
	}
	seen := map[int32]bool{}
	for _, w := range words {
		seen[kstreams.DefaultPartition([]byte(w), iqPartitions)] = true
	}
	if len(seen) != iqPartitions {
		t.Fatalf("the words fall in %d of %d partitions", len(seen), iqPartitions)
	}
	return words, lines
}

// iqApp is one application of the test: its topics and the settings every
// instance shares.
type iqApp struct {
	bootstrap, in, out, appID string
	admin                     *kadm.Client
}

func newIQApp(t *testing.T, bootstrap string) *iqApp {
	a := &iqApp{bootstrap: bootstrap, in: testkafka.Topic(t, "in"), out: testkafka.Topic(t, "out")}
	a.appID = a.in + "-app"
	a.admin = testkafka.Admin(t, bootstrap)
	testkafka.CreateTopics(t, bootstrap, iqPartitions, a.in, a.out)
	return a
}

// settings are an instance's: application.server is its HTTP address, a
// standby replica per task puts standby hosts in the metadata, and a
// session longer than the test's wait for a leave tells a member that left
// from one whose session expired.
func (a *iqApp) settings(t *testing.T, label, server string) map[string]string {
	return map[string]string{
		"application.id":                      a.appID,
		"bootstrap.servers":                   a.bootstrap,
		"client.id":                           a.appID + "-" + label,
		"state.dir":                           t.TempDir(),
		"application.server":                  server,
		"processing.guarantee":                "exactly_once_v2",
		"commit.interval.ms":                  "100",
		"num.standby.replicas":                "1",
		"main.consumer.session.timeout.ms":    "30000",
		"main.consumer.heartbeat.interval.ms": "1000",
		"stoatflow.shutdown.leave-group":      "true",
	}
}

// iqSidecar is a sidecar process whose HTTP API listens at its
// application.server.
type iqSidecar struct {
	p    *sidecartest.Proc
	host string
}

func (s *iqSidecar) url(path string) string { return "http://" + s.host + path }

func (a *iqApp) startSidecar(t *testing.T, bin, props, label string, extra map[string]string) *iqSidecar {
	t.Helper()
	host := sidecartest.FreeAddr(t)
	set := a.settings(t, label, host)
	set["stoatflow.http.listen"] = host
	for k, v := range extra {
		set[k] = v
	}
	args := []string{"run", "--config", props, "--arg", "input=" + a.in, "--arg", "output=" + a.out}
	for _, k := range sortedKeys(set) {
		args = append(args, "--set", k+"="+set[k])
	}
	return &iqSidecar{p: sidecartest.Start(t, bin, args...), host: host}
}

// waitMembers waits up to within for the group to have n members.
func (a *iqApp) waitMembers(t *testing.T, n int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		gs, err := a.admin.DescribeGroups(ctx, a.appID)
		cancel()
		got := -1
		if g, ok := gs[a.appID]; err == nil && ok && g.Err == nil {
			got = len(g.Members)
		}
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("group %s has %d members %v after a member closed, want %d: the member did not leave the group", a.appID, got, within, n)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// iqClient follows no redirect: the test counts them and follows them
// itself.
var iqClient = &http.Client{Timeout: 15 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// iqGet fetches u and decodes its JSON object answer, numbers as
// json.Number.
func iqGet(u string) (int, http.Header, map[string]any, error) {
	resp, err := iqClient.Get(u)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	var m map[string]any
	dec := json.NewDecoder(resp.Body)
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return resp.StatusCode, resp.Header, nil, fmt.Errorf("GET %s: HTTP %d, not a JSON object: %w", u, resp.StatusCode, err)
	}
	return resp.StatusCode, resp.Header, m, nil
}

// iqKeyMetadata is a key's metadata as /stores/{store}/metadata/{key}
// answers it.
type iqKeyMetadata struct {
	Active    string
	Standby   []string // sorted
	Partition int32
	Hosted    bool // hostedHere
}

func (m iqKeyMetadata) String() string {
	return fmt.Sprintf("active %s standby %v partition %d", m.Active, m.Standby, m.Partition)
}

// sameHosts reports whether m and o name the same hosts and partition.
func (m iqKeyMetadata) sameHosts(o iqKeyMetadata) bool {
	return m.Active == o.Active && slices.Equal(m.Standby, o.Standby) && m.Partition == o.Partition
}

func keyMetadataOf(s *iqSidecar, word string) (iqKeyMetadata, error) {
	code, _, m, err := iqGet(s.url("/stores/" + iqStore + "/metadata/" + url.PathEscape(word)))
	if err != nil {
		return iqKeyMetadata{}, err
	}
	if code != http.StatusOK {
		return iqKeyMetadata{}, fmt.Errorf("metadata of %q on %s: HTTP %d %v", word, s.host, code, m)
	}
	var md iqKeyMetadata
	md.Active, _ = m["activeHost"].(string)
	for _, h := range asList(m["standbyHosts"]) {
		s, _ := h.(string)
		md.Standby = append(md.Standby, s)
	}
	slices.Sort(md.Standby)
	p, _ := m["partition"].(json.Number).Int64()
	md.Partition = int32(p)
	md.Hosted, _ = m["hostedHere"].(bool)
	return md, nil
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// iqInstances is an instance's /metadata: its state, the store partitions
// open here, and every instance as its host maps give them, each rendered
// as ReferenceHostMetadata.
type iqInstances struct {
	State  string
	Hosted []int32
	All    map[string]ReferenceHostMetadata
}

func instancesOf(s *iqSidecar) (iqInstances, error) {
	code, _, m, err := iqGet(s.url("/metadata"))
	if err != nil {
		return iqInstances{}, err
	}
	if code != http.StatusOK {
		return iqInstances{}, fmt.Errorf("/metadata of %s: HTTP %d %v", s.host, code, m)
	}
	out := iqInstances{All: map[string]ReferenceHostMetadata{}}
	out.State, _ = m["state"].(string)
	stores, _ := m["stores"].(map[string]any)
	store, _ := stores[iqStore].(map[string]any)
	for _, p := range asList(store["hostedPartitions"]) {
		n, _ := p.(json.Number).Int64()
		out.Hosted = append(out.Hosted, int32(n))
	}
	strs := func(v any) []string {
		var l []string
		for _, s := range asList(v) {
			switch s := s.(type) {
			case string:
				l = append(l, s)
			case map[string]any:
				l = append(l, fmt.Sprintf("%s-%s", s["topic"], s["partition"]))
			}
		}
		slices.Sort(l)
		return l
	}
	for _, e := range asList(m["instances"]) {
		e, _ := e.(map[string]any)
		host, _ := e["host"].(string)
		out.All[host] = ReferenceHostMetadata{Stores: strs(e["stores"]), Partitions: strs(e["partitions"]),
			StandbyStores: strs(e["standbyStores"]), StandbyPartitions: strs(e["standbyPartitions"])}
	}
	return out, nil
}

// sameInstances reports whether two views of every instance are equal,
// and if not, the first difference.
func sameInstances(a, b map[string]ReferenceHostMetadata) (bool, string) {
	for _, h := range slices.Sorted(maps.Keys(a)) {
		if fmt.Sprint(a[h]) != fmt.Sprint(b[h]) {
			return false, fmt.Sprintf("%s: %+v against %+v", h, a[h], b[h])
		}
	}
	for h := range b {
		if _, ok := a[h]; !ok {
			return false, fmt.Sprintf("%s: missing against %+v", h, b[h])
		}
	}
	return true, ""
}

// repartitionOf returns the store partitions a host's entry gives it: its
// partitions of the store's source (repartition) topic.
func (a *iqApp) repartitionOf(tps []string) []int32 {
	prefix := a.appID + "-" + iqStore + "-repartition-"
	var out []int32
	for _, tp := range tps {
		if p, ok := strings.CutPrefix(tp, prefix); ok {
			n, _ := strconv.Atoi(p)
			out = append(out, int32(n))
		}
	}
	slices.Sort(out)
	return out
}

// trioSettled reports whether every instance is RUNNING and their host maps
// agree with each other and with the store partitions each has open; if
// not, why.
func (a *iqApp) trioSettled(ins []*iqSidecar) (bool, string) {
	var first map[string]ReferenceHostMetadata
	open := map[int32]string{}
	for i, s := range ins {
		v, err := instancesOf(s)
		if err != nil {
			return false, err.Error()
		}
		if v.State != "RUNNING" {
			return false, s.host + " is " + v.State
		}
		if len(v.All) != len(ins) {
			return false, fmt.Sprintf("%s lists %d instances", s.host, len(v.All))
		}
		if i == 0 {
			first = v.All
		} else if ok, why := sameInstances(first, v.All); !ok {
			return false, fmt.Sprintf("%s and %s disagree: %s", ins[0].host, s.host, why)
		}
		own, ok := v.All[s.host]
		if !ok {
			return false, s.host + " does not list itself"
		}
		if got := a.repartitionOf(own.Partitions); !slices.Equal(got, v.Hosted) {
			return false, fmt.Sprintf("%s has store partitions %v open, its host maps give it %v", s.host, v.Hosted, got)
		}
		for _, p := range v.Hosted {
			if o, ok := open[p]; ok {
				return false, fmt.Sprintf("store partition %d is open on %s and %s", p, o, s.host)
			}
			open[p] = s.host
		}
	}
	if len(open) != iqPartitions {
		return false, fmt.Sprintf("store partitions open: %v", open)
	}
	return true, ""
}

// queryTrio runs three sidecars with stoatflow.query.remote=mode and asks
// each every word at both levels.
func queryTrio(t *testing.T, bootstrap, bin, props, mode string) {
	a := newIQApp(t, bootstrap)
	words, lines := iqWords(t)
	want, total := expectedUpdates(lines)

	var ins []*iqSidecar
	t.Cleanup(func() {
		if t.Failed() {
			for _, s := range ins {
				t.Logf("sidecar %s:\n%s", s.host, sidecartest.Tail(s.p.Output(), 30))
			}
		}
	})
	// The instances start at the same moment, as a deployment's pods do:
	// one creates the internal topics, and the others find them created
	// before the broker's metadata may show them (Start waits for them).
	for i := range 3 {
		ins = append(ins, a.startSidecar(t, bin, props, fmt.Sprintf("S%d", i+1), map[string]string{"stoatflow.query.remote": mode}))
	}
	for _, s := range ins {
		s.p.WaitReady(t, s.url(""))
	}
	waitGroupSplit(t, a.admin, a.appID, len(ins))
	var recs []testkafka.Record
	for i, l := range lines {
		recs = append(recs, testkafka.Record{Topic: a.in, Partition: int32(i % iqPartitions), Value: []byte(l),
			Timestamp: time.UnixMilli(epochBase + int64(i))})
	}
	testkafka.Produce(t, bootstrap, recs...)
	checkUpdates(t, readUpdates(t, bootstrap, a.out, total), want)

	deadline := time.Now().Add(60 * time.Second)
	for ok, why := a.trioSettled(ins); !ok; ok, why = a.trioSettled(ins) {
		if time.Now().After(deadline) {
			t.Fatalf("remote=%s: the instances did not settle in 60 s: %s", mode, why)
		}
		time.Sleep(200 * time.Millisecond)
	}

	// Every instance names the same active host, standby hosts and
	// partition for every word, and the active host is the one instance
	// whose store partition holds it.
	active := map[string]string{}
	agreed := 0
	for _, w := range words {
		var mds []iqKeyMetadata
		for _, s := range ins {
			md, err := keyMetadataOf(s, w)
			if err != nil {
				t.Fatal(err)
			}
			mds = append(mds, md)
		}
		hosting := ""
		ok := true
		for i, md := range mds {
			if md.Hosted {
				hosting = ins[i].host
			}
			if !md.sameHosts(mds[0]) {
				t.Errorf("remote=%s: %q: %s says %v, %s says %v", mode, w, ins[0].host, mds[0], ins[i].host, md)
				ok = false
			}
			if md.Hosted != (md.Active == ins[i].host) {
				t.Errorf("remote=%s: %q: %s says hostedHere=%v with %v", mode, w, ins[i].host, md.Hosted, md)
				ok = false
			}
		}
		md := mds[0]
		if p := kstreams.DefaultPartition([]byte(w), iqPartitions); md.Partition != p || hosting != md.Active ||
			len(md.Standby) != 1 || md.Standby[0] == md.Active {
			t.Errorf("remote=%s: %q: %v, hosted on %q, want partition %d on its active host and one standby elsewhere", mode, w, md, hosting, p)
			ok = false
		}
		if ok {
			agreed++
		}
		active[w] = md.Active
	}
	t.Logf("remote=%s: key metadata: %d of %d words agree on all %d instances (active host = the instance whose store holds the key, standby hosts, partition)",
		mode, agreed, len(words), len(ins))

	var f iqFigures
	for _, s := range ins {
		for _, w := range words {
			final := want[w][len(want[w])-1]
			for _, level := range iqLevels {
				f.ask(t, mode, s, w, level, final, active[w])
			}
		}
	}
	t.Logf("remote=%s: %d words × %d instances × %d levels = %d queries: %d answered right (%d locally, %d forwarded, %d redirected), %d wrong, %d failed, %d retried after a non-200",
		mode, len(words), len(ins), len(iqLevels), len(words)*len(ins)*len(iqLevels), f.right, f.local, f.forwarded, f.redirected, f.wrong, f.failed, f.retried)
	if f.wrong != 0 || f.failed != 0 || f.right != len(words)*len(ins)*len(iqLevels) {
		t.Errorf("remote=%s: %d wrong, %d failed answers, want none", mode, f.wrong, f.failed)
	}
	remote := map[string]int{"forward": f.forwarded, "redirect": f.redirected}[mode]
	if remote == 0 || f.forwarded+f.redirected != remote {
		t.Errorf("remote=%s: %d forwarded and %d redirected answers", mode, f.forwarded, f.redirected)
	}

	// The host maps did not change while the queries ran.
	if ok, why := a.trioSettled(ins); !ok {
		t.Errorf("remote=%s: after the queries: %s", mode, why)
	}
	for i, s := range ins {
		s.p.Stop(t)
		a.waitMembers(t, len(ins)-1-i, 10*time.Second)
	}
}

// iqFigures count a trio's answers.
type iqFigures struct {
	right, local, forwarded, redirected, wrong, failed, retried int
}

// ask asks s for word at level until it answers 200 or 307 (10 s), follows
// a redirect, and checks the answer: the word's final count, at level,
// from active, saying who answered.
func (f *iqFigures) ask(t *testing.T, mode string, s *iqSidecar, word, level string, final int64, active string) {
	t.Helper()
	u := s.url("/stores/" + iqStore + "/keys/" + url.PathEscape(word) + "?isolation=" + level)
	wrong := func(format string, args ...any) {
		f.wrong++
		t.Errorf("remote=%s: %s asked for %q at %s: "+format, append([]any{mode, s.host, word, level}, args...)...)
	}
	var (
		code int
		hdr  http.Header
		m    map[string]any
		err  error
	)
	deadline := time.Now().Add(10 * time.Second)
	for {
		code, hdr, m, err = iqGet(u)
		if err == nil && (code == http.StatusOK || code == http.StatusTemporaryRedirect) {
			break
		}
		if time.Now().After(deadline) {
			f.failed++
			t.Errorf("remote=%s: %s asked for %q at %s: HTTP %d %v %v", mode, s.host, word, level, code, m, err)
			return
		}
		f.retried++
		time.Sleep(100 * time.Millisecond)
	}
	answered := hdr.Get(iqInstanceHeader)
	switch {
	case code == http.StatusTemporaryRedirect:
		if mode != "redirect" {
			wrong("redirected under remote=%s", mode)
			return
		}
		loc, err := url.Parse(hdr.Get("Location"))
		if err != nil || loc.Host != active || m["activeHost"] != active || loc.Query().Get("isolation") != level || answered != s.host {
			wrong("redirect to %q (%v), body %v, by %q; want to %s at %s", hdr.Get("Location"), err, m, answered, active, level)
			return
		}
		f.redirected++
		code, hdr, m, err = iqGet(loc.String())
		if err != nil || code != http.StatusOK {
			f.failed++
			t.Errorf("remote=%s: %s asked for %q at %s, redirected to %s: HTTP %d %v %v", mode, s.host, word, level, loc, code, m, err)
			return
		}
		answered = hdr.Get(iqInstanceHeader)
	case answered != s.host:
		if mode != "forward" || m["answeredBy"] != answered || hdr.Get(iqForwardedHeader) != s.host {
			wrong("answered by %q under remote=%s, answeredBy %v, forwarded by %q", answered, mode, m["answeredBy"], hdr.Get(iqForwardedHeader))
			return
		}
		f.forwarded++
	default:
		f.local++
	}
	if answered != active || m["value"] != json.Number(strconv.FormatInt(final, 10)) || m["isolation"] != level || m["key"] != word {
		wrong("%v answered by %s; want the count %d at %s from %s", m, answered, final, level, active)
		return
	}
	f.right++
}

// mixedMetadata runs two Kafka Streams instances and one sidecar of the
// word count in one group, a Kafka Streams instance leading it, and checks
// that the sidecar's metadata equals Kafka Streams' on both JVMs.
func mixedMetadata(t *testing.T, bootstrap, bin, props string) {
	a := newIQApp(t, bootstrap)
	words, _ := iqWords(t)
	args := map[string]string{"input": a.in, "output": a.out}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	startJVM := func(label string) (*ReferenceApp, string) {
		host := sidecartest.FreeAddr(t) // nothing listens: Kafka Streams only advertises it
		ref, err := StartReference(ctx, ReferenceOptions{App: wordcount.Name, Configs: []string{props}, Set: a.settings(t, label, host),
			Args: args, MetadataStore: iqStore, MetadataKeys: words})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(ref.Kill)
		return ref, host
	}
	// The first Kafka Streams instance starts alone so that it leads the
	// group: the sidecar decodes a Kafka Streams leader's host maps.
	j1, h1 := startJVM("J1")
	if err := j1.WaitState(ctx, "RUNNING"); err != nil {
		t.Fatal(err)
	}
	j2, h2 := startJVM("J2")
	s := a.startSidecar(t, bin, props, "S1", nil)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("sidecar %s:\n%s", s.host, sidecartest.Tail(s.p.Output(), 30))
			t.Logf("J1:\n%s\nJ2:\n%s", j1.Stderr(), j2.Stderr())
		}
	})
	if err := j2.WaitState(ctx, "RUNNING"); err != nil {
		t.Fatal(err)
	}
	s.p.WaitReady(t, s.url(""))
	waitGroupSplit(t, a.admin, a.appID, 3)
	hosts := []string{h1, h2, s.host}

	// compare reports whether the sidecar's metadata equals both JVMs',
	// the number of keys and hosts that agree, and the first difference.
	compare := func() (keys, instances int, why string) {
		v, err := instancesOf(s)
		if err != nil {
			return 0, 0, err.Error()
		}
		if len(v.All) != len(hosts) {
			return 0, 0, fmt.Sprintf("the sidecar lists %d instances", len(v.All))
		}
		mds := map[string]iqKeyMetadata{}
		for _, w := range words {
			md, err := keyMetadataOf(s, w)
			if err != nil {
				return 0, 0, err.Error()
			}
			if !slices.Contains(hosts, md.Active) || len(md.Standby) != 1 || md.Standby[0] == md.Active || md.Hosted != (md.Active == s.host) {
				return 0, 0, fmt.Sprintf("the sidecar says %q: %v, hostedHere=%v", w, md, md.Hosted)
			}
			mds[w] = md
		}
		for i, j := range []*ReferenceApp{j1, j2} {
			ref, ok := j.Metadata()
			if !ok {
				return keys, instances, fmt.Sprintf("J%d printed no metadata yet", i+1)
			}
			if same, diff := sameInstances(v.All, ref.Hosts); !same {
				why = cmp.Or(why, fmt.Sprintf("/metadata against J%d's metadataForAllStreamsClients: %s", i+1, diff))
			} else {
				instances += len(hosts)
			}
			for _, w := range words {
				r := ref.Keys[w]
				want := iqKeyMetadata{Active: r.ActiveHost, Standby: slices.Sorted(slices.Values(r.StandbyHosts)), Partition: r.Partition}
				if !mds[w].sameHosts(want) {
					why = cmp.Or(why, fmt.Sprintf("%q: the sidecar says %v, J%d's queryMetadataForKey %v", w, mds[w], i+1, want))
					continue
				}
				keys++
			}
		}
		return keys, instances, why
	}
	deadline := time.Now().Add(60 * time.Second)
	var keys, instances int
	for {
		var why string
		keys, instances, why = compare()
		if why == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("mixed: the sidecar's metadata did not equal Kafka Streams' in 60 s (%d of %d key answers and %d of %d instance entries agree): %s",
				keys, 2*len(words), instances, 2*len(hosts), why)
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Logf("mixed: the sidecar's key metadata equals queryMetadataForKey on both Kafka Streams instances for %d of %d (words × JVMs), its /metadata equals metadataForAllStreamsClients for %d of %d (instances × JVMs)",
		keys, 2*len(words), instances, 2*len(hosts))

	s.p.Stop(t)
	a.waitMembers(t, 2, 10*time.Second)
	if err := j2.Stop(45 * time.Second); err != nil {
		t.Fatal(err)
	}
	a.waitMembers(t, 1, 10*time.Second)
	if err := j1.Stop(45 * time.Second); err != nil {
		t.Fatal(err)
	}
	a.waitMembers(t, 0, 10*time.Second)
}
