package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/storeformat"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
)

// routedInstance is a fakeInstance with host maps: the active host of each
// of the stores' two partitions, as this instance last saw them.
type routedInstance struct {
	*fakeInstance
	mu     sync.Mutex
	active map[int32]string // partition -> application.server
	// unassigned makes every key NotAvailable: no assignment under the
	// stream protocol yet.
	unassigned bool
}

func (f *routedInstance) setActive(p int32, host string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if host == "" {
		delete(f.active, p)
		return
	}
	f.active[p] = host
}

func (f *fakeInstance) setStores(name string, ls []streams.LocalStore) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stores[name] = ls
}

func (f *routedInstance) MetadataForKey(store string, key []byte) (streams.KeyQueryMetadata, error) {
	if store != "counts" && store != "windows" {
		return streams.KeyQueryMetadata{}, fmt.Errorf("%w: %s", streams.ErrUnknownStore, store)
	}
	p := kstreams.DefaultPartition(key, 2)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.unassigned {
		return streams.NotAvailable, nil
	}
	host, ok := f.active[p]
	if !ok {
		return streams.KeyQueryMetadata{ActiveHost: streams.UnavailableHost, Partition: p}, nil
	}
	h := parseSelf(host)
	return streams.KeyQueryMetadata{ActiveHost: *h, Partition: p}, nil
}

func (f *routedInstance) AllMetadata() []streams.StreamsMetadata {
	f.mu.Lock()
	defer f.mu.Unlock()
	byHost := map[string][]state.TopicPartition{}
	for p, h := range f.active {
		byHost[h] = append(byHost[h], state.TopicPartition{Topic: "kv-in", Partition: p})
	}
	var out []streams.StreamsMetadata
	for h, tps := range byHost {
		out = append(out, streams.StreamsMetadata{Host: *parseSelf(h), StateStoreNames: []string{"counts"}, TopicPartitions: tps})
	}
	return out
}

// node is one instance's HTTP API on its own httptest server, whose
// address is its application.server.
type node struct {
	srv  *Server
	ts   *httptest.Server
	ins  *routedInstance
	host string
	hits atomic.Int32
	mu   sync.Mutex
	last *http.Request // the last request it received
}

func (n *node) lastRequest() *http.Request {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.last
}

// newNode serves an instance that hosts partition p of "counts" (and of
// "windows") with the words of words that map there: committed value
// their index + 1, uncommitted 100 + that.
func newNode(t *testing.T, p int32, words []string, configure func(*Config)) *node {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	n := &node{ts: ts, host: ts.Listener.Addr().String()}
	n.ins = &routedInstance{fakeInstance: &fakeInstance{st: streams.Running, stores: map[string][]streams.LocalStore{}}, active: map[int32]string{}}
	kv := state.NewInMemoryKeyValue(state.KeyValueOptions{Name: "counts", Timestamped: true})
	t.Cleanup(func() { kv.Close() })
	for commit := range 2 {
		for i, w := range words {
			if kstreams.DefaultPartition([]byte(w), 2) == p {
				kv.Put([]byte(w), storeformat.AppendTimestamped(nil, 1, long(int64(i+1+100*commit))))
			}
		}
		if commit == 0 {
			kv.Commit(nil)
		}
	}
	n.ins.stores["counts"] = []streams.LocalStore{{Name: "counts", Partition: p, Kind: kstreams.KeyValueStoreKind, Store: kv}}
	ws, err := state.NewInMemoryWindow(state.WindowOptions{Name: "windows", RetentionMs: 60_000, Timestamped: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	for _, w := range words {
		if kstreams.DefaultPartition([]byte(w), 2) == p {
			ws.Put([]byte(w), storeformat.AppendTimestamped(nil, 5, long(7)), 0)
		}
	}
	ws.Commit(nil)
	n.ins.stores["windows"] = []streams.LocalStore{{Name: "windows", Partition: p, Kind: kstreams.WindowStoreKind, Store: ws}}
	cfg := Config{
		Listen: "127.0.0.1:0", Isolation: state.ReadCommitted, ApplicationServer: n.host,
		Streams: n.ins, Topology: testTopology(t), ApplicationID: "app",
		DefaultKeySerde: serde.Erase[string](serde.String{}), DefaultValueSerde: serde.Erase[string](serde.String{}),
		RemoteTimeout: 2 * time.Second,
	}
	if configure != nil {
		configure(&cfg)
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	n.srv = srv
	ts.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.hits.Add(1)
		n.mu.Lock()
		n.last = r.Clone(r.Context())
		n.mu.Unlock()
		srv.ServeHTTP(w, r)
	})
	ts.Start()
	t.Cleanup(ts.Close)
	return n
}

var routedWords = []string{"apple", "apricot", "banana", "cherry", "avocado", "damson", "elder", "fig"}

// wordAt returns a word of routedWords that maps to partition p of 2.
func wordAt(t *testing.T, p int32) string {
	t.Helper()
	for _, w := range routedWords {
		if kstreams.DefaultPartition([]byte(w), 2) == p {
			return w
		}
	}
	t.Fatalf("no word maps to partition %d", p)
	return ""
}

// committed is the committed count newNode gives w.
func committed(w string) float64 {
	for i, x := range routedWords {
		if x == w {
			return float64(i + 1)
		}
	}
	return -1
}

// twoNodes are a and b, hosting partitions 0 and 1, each knowing both.
func twoNodes(t *testing.T, configure func(*Config)) (a, b *node) {
	t.Helper()
	a = newNode(t, 0, routedWords, configure)
	b = newNode(t, 1, routedWords, configure)
	for _, n := range []*node{a, b} {
		n.ins.setActive(0, a.host)
		n.ins.setActive(1, b.host)
	}
	return a, b
}

// do sends a GET to base+path without following redirects.
func do(t *testing.T, base, path string, hdr ...string) (*http.Response, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	cl := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := cl.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v: %s", path, err, b)
	}
	return resp, m
}

func TestKeyQueryForwardedToTheActiveHost(t *testing.T) {
	a, b := twoNodes(t, nil)
	w := wordAt(t, 1)
	resp, m := do(t, a.ts.URL, "/stores/counts/keys/"+w)
	if resp.StatusCode != 200 || m["value"] != committed(w) || m["partition"] != 1.0 {
		t.Fatalf("forwarded get: %d %v", resp.StatusCode, m)
	}
	if m["answeredBy"] != b.host || resp.Header.Get(InstanceHeader) != b.host || resp.Header.Get(ForwardedHeader) != a.host {
		t.Errorf("the answer does not say b answered for a: body %v, headers %v", m, resp.Header)
	}
	if got := b.lastRequest().Header.Get(ForwardedHeader); got != a.host {
		t.Errorf("b saw %s %q, want a's host", ForwardedHeader, got)
	}
	// A key hosted here is answered here, and says so.
	here := wordAt(t, 0)
	resp, m = do(t, a.ts.URL, "/stores/counts/keys/"+here)
	if resp.StatusCode != 200 || m["value"] != committed(here) || m["answeredBy"] != nil || resp.Header.Get(InstanceHeader) != a.host {
		t.Errorf("local get: %d %v %v", resp.StatusCode, m, resp.Header)
	}
	// The other key routes are forwarded too.
	resp, m = do(t, a.ts.URL, "/stores/windows/windows/"+w+"?from=0&to=1000")
	if res, _ := m["results"].([]any); resp.StatusCode != 200 || len(res) != 1 || m["answeredBy"] != b.host {
		t.Errorf("forwarded window fetch: %d %v", resp.StatusCode, m)
	}
	// A missing key's 404 is b's, relayed.
	resp, m = do(t, a.ts.URL, "/stores/counts/keys/"+absentAt(t, 1))
	if resp.StatusCode != 404 || m["answeredBy"] != b.host {
		t.Errorf("forwarded 404: %d %v", resp.StatusCode, m)
	}
}

// absentAt returns a key of no node's store that maps to partition p.
func absentAt(t *testing.T, p int32) string {
	for i := range 100 {
		k := fmt.Sprintf("absent%d", i)
		if kstreams.DefaultPartition([]byte(k), 2) == p {
			return k
		}
	}
	t.Fatal("no absent key")
	return ""
}

func TestKeyQueryCarriesIsolationLevel(t *testing.T) {
	a := newNode(t, 0, routedWords, nil)
	// b reads READ_UNCOMMITTED by default: a's level must reach it.
	b := newNode(t, 1, routedWords, func(c *Config) { c.Isolation = state.ReadUncommitted })
	a.ins.setActive(1, b.host)
	w := wordAt(t, 1)
	resp, m := do(t, a.ts.URL, "/stores/counts/keys/"+w)
	if resp.StatusCode != 200 || m["value"] != committed(w) || m["isolation"] != "READ_COMMITTED" {
		t.Errorf("a's default READ_COMMITTED, answered by b: %d %v", resp.StatusCode, m)
	}
	if got := b.lastRequest().URL.Query().Get("isolation"); got != "READ_COMMITTED" {
		t.Errorf("b was asked at isolation %q", got)
	}
	resp, m = do(t, a.ts.URL, "/stores/counts/keys/"+w+"?isolation=read_uncommitted")
	if resp.StatusCode != 200 || m["value"] != committed(w)+100 || m["isolation"] != "READ_UNCOMMITTED" {
		t.Errorf("READ_UNCOMMITTED through a: %d %v", resp.StatusCode, m)
	}
}

func TestKeyQueryCarriesBearerToken(t *testing.T) {
	a, b := twoNodes(t, func(c *Config) { c.AuthToken = "s3cret" })
	w := wordAt(t, 1)
	if resp, _ := do(t, a.ts.URL, "/stores/counts/keys/"+w); resp.StatusCode != 401 {
		t.Errorf("no token: %d", resp.StatusCode)
	}
	if b.hits.Load() != 0 {
		t.Errorf("a query without a token reached b")
	}
	resp, m := do(t, a.ts.URL, "/stores/counts/keys/"+w, "Authorization", "Bearer s3cret")
	if resp.StatusCode != 200 || m["value"] != committed(w) {
		t.Errorf("with the token: %d %v", resp.StatusCode, m)
	}
	if got := b.lastRequest().Header.Get("Authorization"); got != "Bearer s3cret" {
		t.Errorf("b got Authorization %q", got)
	}
}

func TestKeyQueryRedirectedToTheActiveHost(t *testing.T) {
	a, b := twoNodes(t, func(c *Config) { c.Remote = compat.QueryRedirect })
	w := wordAt(t, 1)
	resp, m := do(t, a.ts.URL, "/stores/counts/keys/"+w+"?isolation=read_uncommitted")
	want := "http://" + b.host + "/stores/counts/keys/" + w + "?isolation=READ_UNCOMMITTED"
	if resp.StatusCode != http.StatusTemporaryRedirect || resp.Header.Get("Location") != want || m["activeHost"] != b.host || m["partition"] != 1.0 {
		t.Fatalf("redirect: %d %v Location %q, want %q", resp.StatusCode, m, resp.Header.Get("Location"), want)
	}
	if b.hits.Load() != 0 {
		t.Error("a redirecting instance asked b itself")
	}
	resp, m = do(t, "", resp.Header.Get("Location"))
	if resp.StatusCode != 200 || m["value"] != committed(w)+100 {
		t.Errorf("following the redirect: %d %v", resp.StatusCode, m)
	}
}

func TestKeyQueryRemoteNoneAnswers503WithMetadata(t *testing.T) {
	a, b := twoNodes(t, func(c *Config) { c.Remote = compat.QueryNone })
	resp, m := do(t, a.ts.URL, "/stores/counts/keys/"+wordAt(t, 1))
	if resp.StatusCode != 503 || m["activeHost"] != b.host || m["partition"] != 1.0 || b.hits.Load() != 0 {
		t.Errorf("none: %d %v", resp.StatusCode, m)
	}
}

// TestForwardedQueryIsNeverForwardedAgain: a and b each think the other
// hosts the key (host maps of different generations): a forwards once, b
// answers 503 with its view instead of forwarding back, and a relays it.
func TestForwardedQueryIsNeverForwardedAgain(t *testing.T) {
	a, b := twoNodes(t, nil)
	b.ins.setActive(1, a.host) // b's maps are stale: partition 1 moved to a
	b.ins.setStores("counts", nil)
	resp, m := do(t, a.ts.URL, "/stores/counts/keys/"+wordAt(t, 1))
	if resp.StatusCode != 503 || m["answeredBy"] != b.host || !strings.Contains(fmt.Sprint(m["error"]), "already forwarded") {
		t.Errorf("second hop: %d %v", resp.StatusCode, m)
	}
	if a.hits.Load() != 1 || b.hits.Load() != 1 {
		t.Errorf("a asked %d times, b %d times; want once each", a.hits.Load(), b.hits.Load())
	}
}

// TestStaleHostMapNamingThisInstance: the maps say this instance hosts the
// key, but its store partition is not open: 503 saying so, no forward.
func TestStaleHostMapNamingThisInstance(t *testing.T) {
	a, b := twoNodes(t, nil)
	a.ins.setActive(1, a.host)
	resp, m := do(t, a.ts.URL, "/stores/counts/keys/"+wordAt(t, 1))
	if resp.StatusCode != 503 || m["activeHost"] != a.host || !strings.Contains(fmt.Sprint(m["error"]), "names this instance") {
		t.Errorf("stale map: %d %v", resp.StatusCode, m)
	}
	if a.hits.Load() != 1 || b.hits.Load() != 0 {
		t.Errorf("a asked %d times, b %d; want a once", a.hits.Load(), b.hits.Load())
	}
	a.ins.setActive(1, "")
	resp, m = do(t, a.ts.URL, "/stores/counts/keys/"+wordAt(t, 1))
	if resp.StatusCode != 503 || m["activeHost"] != nil || m["partition"] != 1.0 {
		t.Errorf("no active host known: %d %v", resp.StatusCode, m)
	}
}

func TestForwardTimeoutIs503WithMetadata(t *testing.T) {
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(release)
	a := newNode(t, 0, routedWords, func(c *Config) { c.RemoteTimeout = 200 * time.Millisecond })
	host := slow.Listener.Addr().String()
	a.ins.setActive(1, host)
	start := time.Now()
	resp, m := do(t, a.ts.URL, "/stores/counts/keys/"+wordAt(t, 1))
	if resp.StatusCode != 503 || m["activeHost"] != host || m["partition"] != 1.0 || !strings.Contains(fmt.Sprint(m["error"]), "did not answer") {
		t.Errorf("slow host: %d %v", resp.StatusCode, m)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("answered after %s, want about the 200ms timeout", d)
	}
}

func TestForwardToANonStoatFlowHostIs502(t *testing.T) {
	jvm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"value":42}`))
	}))
	defer jvm.Close()
	a := newNode(t, 0, routedWords, nil)
	host := jvm.Listener.Addr().String()
	a.ins.setActive(1, host)
	resp, m := do(t, a.ts.URL, "/stores/counts/keys/"+wordAt(t, 1))
	if resp.StatusCode != http.StatusBadGateway || m["host"] != host || !strings.Contains(fmt.Sprint(m["error"]), host) {
		t.Errorf("JVM host: %d %v", resp.StatusCode, m)
	}
}

func TestKeyMetadataAndInstancesFromHostMaps(t *testing.T) {
	a, b := twoNodes(t, nil)
	w := wordAt(t, 1)
	resp, m := do(t, a.ts.URL, "/stores/counts/metadata/"+url.PathEscape(w))
	if resp.StatusCode != 200 || m["activeHost"] != b.host || m["partition"] != 1.0 || m["hostedHere"] != false {
		t.Errorf("key metadata: %d %v", resp.StatusCode, m)
	}
	if b.hits.Load() != 0 {
		t.Error("the metadata route was forwarded")
	}
	resp, m = do(t, a.ts.URL, "/metadata")
	inst, _ := m["instances"].([]any)
	if resp.StatusCode != 200 || len(inst) != 2 {
		t.Fatalf("metadata: %d %v", resp.StatusCode, m)
	}
	locals := 0
	for _, x := range inst {
		e := x.(map[string]any)
		if e["local"] == true {
			locals++
			if e["host"] != a.host {
				t.Errorf("local instance %v, want %s", e, a.host)
			}
		}
	}
	if locals != 1 {
		t.Errorf("instances %v: %d local, want 1", inst, locals)
	}
}

// TestKeyQueryWithoutHostMapsLooksLocally: an instance without host maps
// (a group still on the range protocol of earlier StoatFlow releases)
// finds the key's partition from the partition count, as before.
func TestKeyQueryWithoutHostMapsLooksLocally(t *testing.T) {
	a := newNode(t, 0, routedWords, func(c *Config) {
		c.Partitions = func(context.Context, string) (int, error) { return 2, nil }
	})
	a.ins.mu.Lock()
	a.ins.unassigned = true
	a.ins.mu.Unlock()
	w := wordAt(t, 0)
	if resp, m := do(t, a.ts.URL, "/stores/counts/keys/"+w); resp.StatusCode != 200 || m["value"] != committed(w) {
		t.Errorf("local key: %d %v", resp.StatusCode, m)
	}
	if resp, m := do(t, a.ts.URL, "/stores/counts/keys/"+wordAt(t, 1)); resp.StatusCode != 503 || m["partition"] != 1.0 {
		t.Errorf("key elsewhere: %d %v", resp.StatusCode, m)
	}
	if resp, m := do(t, a.ts.URL, "/stores/counts/metadata/"+w); resp.StatusCode != 200 || m["partition"] != 0.0 || m["hostedHere"] != true {
		t.Errorf("metadata: %d %v", resp.StatusCode, m)
	}
}
