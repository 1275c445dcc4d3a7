package httpapi

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/binary"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/storeformat"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
)

// fakeInstance hosts in-memory stores, as the runtime's LocalStores lists
// them.
type fakeInstance struct {
	mu     sync.Mutex
	st     streams.State
	stores map[string][]streams.LocalStore
}

func (f *fakeInstance) State() streams.State {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.st
}

func (f *fakeInstance) LocalStores(name string) []streams.LocalStore {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]streams.LocalStore(nil), f.stores[name]...)
}

func long(n int64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, uint64(n))
	return b
}

// testTopology has a key-value, a window and a session store with given
// names.
func testTopology(t *testing.T) *kstreams.Topology {
	t.Helper()
	b := kstreams.NewStreamsBuilder()
	kstreams.Stream[string, string](b, []string{"kv-in"}).GroupByKey().
		Count(kstreams.MaterializedAs[string, int64]("counts"))
	kstreams.WindowedBy(kstreams.Stream[string, string](b, []string{"w-in"}).GroupByKey(),
		kstreams.TimeWindowsOfSizeWithNoGrace(10*time.Second)).Count(kstreams.MaterializedAs[string, int64]("windows"))
	kstreams.WindowedBySession(kstreams.Stream[string, string](b, []string{"s-in"}).GroupByKey(),
		kstreams.SessionWindowsOfInactivityGapWithNoGrace(5*time.Second)).Count(kstreams.MaterializedAs[string, int64]("sessions"))
	kstreams.Table(b, "p-in", kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}),
		kstreams.MaterializedAsVersioned[string, string](kstreams.PersistentVersionedKeyValueStore("prices", time.Hour)))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

type fixture struct {
	srv  *Server
	ins  *fakeInstance
	kv   [2]state.KeyValueStore
	base string
}

// newFixture serves a topology whose key-value store has partitions 0 and
// 1 hosted here (of 2), with committed and uncommitted counts.
func newFixture(t *testing.T, token string) *fixture {
	t.Helper()
	topo := testTopology(t)
	f := &fixture{ins: &fakeInstance{st: streams.Running, stores: map[string][]streams.LocalStore{}}}
	for p := range 2 {
		kv := state.NewInMemoryKeyValue(state.KeyValueOptions{Name: "counts", Timestamped: true})
		f.kv[p] = kv
		f.ins.stores["counts"] = append(f.ins.stores["counts"], streams.LocalStore{Name: "counts", Partition: int32(p), Kind: kstreams.KeyValueStoreKind, Store: kv})
		t.Cleanup(func() { kv.Close() })
	}
	put := func(word string, n int64, commit bool) {
		p := kstreams.DefaultPartition([]byte(word), 2)
		if err := f.kv[p].Put([]byte(word), storeformat.AppendTimestamped(nil, 1000+n, long(n))); err != nil {
			t.Fatal(err)
		}
		if commit {
			if err := f.kv[p].Commit(nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i, w := range []string{"apple", "apricot", "banana", "cherry", "avocado"} {
		put(w, int64(i+1), true)
	}
	put("apple", 10, false) // pending: only READ_UNCOMMITTED sees it

	ws, err := state.NewInMemoryWindow(state.WindowOptions{Name: "windows", RetentionMs: 60_000, Timestamped: true})
	if err != nil {
		t.Fatal(err)
	}
	ws.Put([]byte("k"), storeformat.AppendTimestamped(nil, 5, long(3)), 0)
	ws.Put([]byte("k"), storeformat.AppendTimestamped(nil, 15, long(4)), 10_000)
	ws.Put([]byte("j"), storeformat.AppendTimestamped(nil, 15, long(7)), 10_000)
	ws.Commit(nil)
	ss, err := state.NewInMemorySession(state.SessionOptions{Name: "sessions", RetentionMs: 60_000})
	if err != nil {
		t.Fatal(err)
	}
	ss.Put([]byte("u"), 100, 200, long(2))
	ss.Put([]byte("u"), 9000, 9500, long(1))
	ss.Commit(nil)
	for _, s := range []state.Store{ws, ss} {
		t.Cleanup(func() { s.Close() })
	}
	vs, err := state.NewInMemoryVersioned(state.VersionedOptions{Name: "prices", HistoryRetentionMs: 3_600_000})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { vs.Close() })
	vs.Put([]byte("tea"), []byte("p10"), 10)
	vs.Put([]byte("tea"), []byte("p30"), 30)
	vs.Put([]byte("tea"), []byte("p20"), 20) // out of order
	vs.Delete([]byte("tea"), 40)
	vs.Put([]byte("tea"), []byte("p50"), 50)
	vs.Commit(nil)
	vs.Put([]byte("tea"), []byte("p60"), 60) // pending
	f.ins.stores["prices"] = []streams.LocalStore{{Name: "prices", Kind: kstreams.VersionedStoreKind, Store: vs}}
	f.ins.stores["windows"] = []streams.LocalStore{{Name: "windows", Kind: kstreams.WindowStoreKind, Store: ws}}
	f.ins.stores["sessions"] = []streams.LocalStore{{Name: "sessions", Kind: kstreams.SessionStoreKind, Store: ss}}

	parts := map[string]int{"counts": 2, "windows": 1, "sessions": 1, "prices": 1}
	srv, err := New(Config{
		Listen: "127.0.0.1:0", AuthToken: token, Isolation: state.ReadCommitted, ApplicationServer: "host-a:7070",
		Streams: f.ins, Topology: topo, ApplicationID: "app",
		DefaultKeySerde: serde.Erase[string](serde.String{}), DefaultValueSerde: serde.Erase[string](serde.String{}),
		Partitions: func(_ context.Context, store string) (int, error) { return parts[store], nil },
		MaxResults: 3,
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	f.srv, f.base = srv, ts.URL
	return f
}

func (f *fixture) get(t *testing.T, path string, hdr ...string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, f.base+path, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v: %s", path, err, b)
		}
	}
	return resp.StatusCode, m
}

func TestKeyQueriesAtBothIsolationLevels(t *testing.T) {
	f := newFixture(t, "")
	code, m := f.get(t, "/stores/counts/keys/apple")
	if code != 200 || m["value"] != 1.0 || m["isolation"] != "READ_COMMITTED" || m["timestamp"] != 1001.0 {
		t.Errorf("default (configured READ_COMMITTED): %d %v", code, m)
	}
	code, m = f.get(t, "/stores/counts/keys/apple?isolation=read_uncommitted")
	if code != 200 || m["value"] != 10.0 || m["isolation"] != "READ_UNCOMMITTED" {
		t.Errorf("READ_UNCOMMITTED: %d %v", code, m)
	}
	if code, _ := f.get(t, "/stores/counts/keys/durian"); code != 404 {
		t.Errorf("absent key: %d", code)
	}
	if code, _ := f.get(t, "/stores/nope/keys/apple"); code != 404 {
		t.Errorf("unknown store: %d", code)
	}
	if code, _ := f.get(t, "/stores/counts/keys/apple?isolation=SNAPSHOT"); code != 400 {
		t.Errorf("bad isolation: %d", code)
	}
	if code, _ := f.get(t, "/stores/windows/keys/apple"); code != 400 {
		t.Errorf("key-value route on a window store: %d", code)
	}
}

func TestListingsMergePartitionsAndHonourLimits(t *testing.T) {
	f := newFixture(t, "")
	code, m := f.get(t, "/stores/counts/all?limit=3")
	res, _ := m["results"].([]any)
	if code != 200 || len(res) != 3 || m["truncated"] != true {
		t.Fatalf("all: %d %v", code, m)
	}
	var keys []string
	for _, r := range res {
		keys = append(keys, r.(map[string]any)["key"].(string))
	}
	if strings.Join(keys, ",") != "apple,apricot,avocado" {
		t.Errorf("all keys %v, want the first three in key order across partitions", keys)
	}
	code, m = f.get(t, "/stores/counts/prefix/ap")
	if res, _ := m["results"].([]any); code != 200 || len(res) != 2 || m["truncated"] != false {
		t.Errorf("prefix: %d %v", code, m)
	}
	code, m = f.get(t, "/stores/counts/range?from=b&to=c&isolation=READ_UNCOMMITTED")
	if res, _ := m["results"].([]any); code != 200 || len(res) != 1 || res[0].(map[string]any)["key"] != "banana" {
		t.Errorf("range: %d %v", code, m)
	}
	code, m = f.get(t, "/stores/counts/all?limit=4")
	if res, _ := m["results"].([]any); code != 200 || len(res) != 3 || m["truncated"] != true {
		t.Errorf("limit above the ceiling, clamped to it: %d %v", code, m)
	}
	if code, _ := f.get(t, "/stores/counts/all?limit=x"); code != 400 {
		t.Errorf("bad limit: %d", code)
	}
}

func TestWindowAndSessionQueries(t *testing.T) {
	f := newFixture(t, "")
	code, m := f.get(t, "/stores/windows/windows/k?from=0&to=20000")
	res, _ := m["results"].([]any)
	if code != 200 || len(res) != 2 {
		t.Fatalf("window fetch: %d %v", code, m)
	}
	second := res[1].(map[string]any)
	if second["windowStart"] != 10000.0 || second["windowEnd"] != 20000.0 || second["value"] != 4.0 || second["timestamp"] != 15.0 {
		t.Errorf("window entry %v", second)
	}
	code, m = f.get(t, "/stores/windows/windows?keyFrom=j&keyTo=j&from=10000&to=10000")
	if res, _ := m["results"].([]any); code != 200 || len(res) != 1 || res[0].(map[string]any)["value"] != 7.0 {
		t.Errorf("window fetch-range: %d %v", code, m)
	}
	if code, _ := f.get(t, "/stores/windows/windows/k?from=soon"); code != 400 {
		t.Errorf("bad time: %d", code)
	}
	code, m = f.get(t, "/stores/sessions/sessions/u?earliestEnd=0&latestStart=1000")
	if res, _ := m["results"].([]any); code != 200 || len(res) != 1 || res[0].(map[string]any)["windowEnd"] != 200.0 {
		t.Errorf("find sessions: %d %v", code, m)
	}
}

func TestNotHostedOrRestoringIs503WithRoutingMetadata(t *testing.T) {
	f := newFixture(t, "")
	f.ins.mu.Lock()
	f.ins.stores["counts"] = f.ins.stores["counts"][:1] // partition 1 moved away
	f.ins.mu.Unlock()
	var away string
	for _, w := range []string{"apple", "apricot", "banana", "cherry", "avocado"} {
		if kstreams.DefaultPartition([]byte(w), 2) == 1 {
			away = w
		}
	}
	code, m := f.get(t, "/stores/counts/keys/"+away)
	if code != 503 || m["partition"] != 1.0 || m["applicationServer"] != "host-a:7070" {
		t.Errorf("not hosted: %d %v", code, m)
	}
	code, m = f.get(t, "/stores/counts/metadata/"+away)
	if code != 200 || m["hostedHere"] != false || m["partition"] != 1.0 || m["partitions"] != 2.0 {
		t.Errorf("metadata: %d %v", code, m)
	}
	f.ins.mu.Lock()
	f.ins.st = streams.Rebalancing
	f.ins.stores["windows"] = nil
	f.ins.mu.Unlock()
	if code, m := f.get(t, "/stores/windows/windows/k"); code != 503 || m["state"] != "REBALANCING" {
		t.Errorf("restoring: %d %v", code, m)
	}
	if code, _ := f.get(t, "/readyz"); code != 503 {
		t.Errorf("readyz while rebalancing: %d", code)
	}
	f.ins.mu.Lock()
	f.ins.st = streams.Running
	f.ins.mu.Unlock()
	if code, _ := f.get(t, "/readyz"); code != 200 {
		t.Errorf("readyz while running: %d", code)
	}
}

func TestClosedStoreIs503(t *testing.T) {
	f := newFixture(t, "")
	f.kv[0].Close()
	f.kv[1].Close()
	if code, _ := f.get(t, "/stores/counts/all"); code != 503 {
		t.Errorf("closed store: %d", code)
	}
}

func TestBearerToken(t *testing.T) {
	f := newFixture(t, "s3cret")
	if code, _ := f.get(t, "/stores/counts/keys/apple"); code != 401 {
		t.Errorf("no token: %d", code)
	}
	if code, _ := f.get(t, "/metrics", "Authorization", "Bearer wrong"); code != 401 {
		t.Errorf("wrong token: %d", code)
	}
	if code, _ := f.get(t, "/stores/counts/keys/apple", "Authorization", "Bearer s3cret"); code != 200 {
		t.Errorf("right token: %d", code)
	}
	if code, _ := f.get(t, "/healthz"); code != 200 {
		t.Errorf("healthz needs no token: %d", code)
	}
}

func TestParseKeyTypes(t *testing.T) {
	for _, c := range []struct {
		s    serde.Untyped
		text string
		want any
		bad  bool
	}{
		{serde.Erase[int64](serde.Long{}), "42", int64(42), false},
		{serde.Erase[int64](serde.Long{}), "x", nil, true},
		{serde.Erase[int32](serde.Integer{}), "7", int32(7), false},
		{serde.Erase[float64](serde.Double{}), "1.5", 1.5, false},
		{serde.Erase[bool](serde.Boolean{}), "true", true, false},
		{serde.Erase[string](serde.String{}), "héllo", "héllo", false},
	} {
		got, err := parseAs(c.s, c.text)
		if (err != nil) != c.bad || (!c.bad && got != c.want) {
			t.Errorf("parseAs(%T, %q) = %v, %v", c.s, c.text, got, err)
		}
	}
}

// TestRunServesAndStops: Run serves until its context ends and leaves no
// goroutine behind.
func TestRunServesAndStops(t *testing.T) {
	before := runtime.NumGoroutine()
	defer func() {
		http.DefaultClient.CloseIdleConnections()
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			t.Errorf("%d goroutines left behind", n-before)
		}
	}()
	srv, err := New(Config{Listen: "127.0.0.1:0", Topology: testTopology(t), ApplicationID: "app"})
	if err != nil {
		t.Fatal(err)
	}
	addr, err := srv.Listen()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	resp, err := http.Get("http://" + addr.String() + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 503 {
		t.Errorf("readyz before the instance exists: %d", resp.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not stop")
	}
}

func TestServesTLS(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(key)
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)

	if _, err := New(Config{Topology: testTopology(t), ApplicationID: "app", TLSCertFile: certFile}); err == nil {
		t.Error("a certificate without a key was accepted")
	}
	srv, err := New(Config{Listen: "127.0.0.1:0", Topology: testTopology(t), ApplicationID: "app", TLSCertFile: certFile, TLSKeyFile: keyFile})
	if err != nil {
		t.Fatal(err)
	}
	addr, err := srv.Listen()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	defer func() { cancel(); <-done }()
	pool := x509.NewCertPool()
	pool.AddCert(must(x509.ParseCertificate(der)))
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := c.Get("https://" + addr.String() + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("healthz over TLS: %d", resp.StatusCode)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// The versioned store's route: the latest version, the version as of a
// time (VersionedKeyQuery), and the versions of a time range in either
// order (MultiVersionedKeyQuery), at both isolation levels, with the
// limit; and the requests it refuses.
func TestVersionedQueries(t *testing.T) {
	f := newFixture(t, "")
	code, m := f.get(t, "/stores/prices/versions/tea")
	if _, has := m["validTo"]; code != 200 || m["value"] != "p50" || m["timestamp"] != 50.0 || has {
		t.Errorf("latest: %d %v", code, m)
	}
	code, m = f.get(t, "/stores/prices/versions/tea?isolation=READ_UNCOMMITTED")
	if code != 200 || m["value"] != "p60" {
		t.Errorf("latest, uncommitted: %d %v", code, m)
	}
	code, m = f.get(t, "/stores/prices/versions/tea?asOf=25")
	if code != 200 || m["value"] != "p20" || m["timestamp"] != 20.0 || m["validTo"] != 30.0 || m["key"] != "tea" {
		t.Errorf("asOf 25: %d %v", code, m)
	}
	if code, m := f.get(t, "/stores/prices/versions/tea?asOf=45"); code != 404 || !strings.Contains(fmt.Sprint(m["error"]), "no version valid at 45") {
		t.Errorf("asOf a deletion: %d %v", code, m)
	}
	values := func(m map[string]any) string {
		var out []string
		for _, r := range m["results"].([]any) {
			out = append(out, r.(map[string]any)["value"].(string))
		}
		return strings.Join(out, ",")
	}
	code, m = f.get(t, "/stores/prices/versions/tea?from=15&to=55")
	if code != 200 || values(m) != "p50,p30,p20" || m["truncated"] != true {
		t.Errorf("range, newest first, limited to 3: %d %v", code, m)
	}
	code, m = f.get(t, "/stores/prices/versions/tea?from=15&to=35&order=asc")
	if code != 200 || values(m) != "p10,p20,p30" || m["truncated"] != false {
		t.Errorf("range ascending: %d %v", code, m)
	}
	code, m = f.get(t, "/stores/prices/versions/tea?from=55&isolation=READ_UNCOMMITTED")
	if code != 200 || values(m) != "p60,p50" {
		t.Errorf("open-ended range, uncommitted: %d %v", code, m)
	}
	code, m = f.get(t, "/stores/prices/versions/coffee?from=0")
	if res, _ := m["results"].([]any); code != 200 || res == nil || len(res) != 0 {
		t.Errorf("range of an absent key: %d %v", code, m)
	}
	for _, bad := range []string{"asOf=10&from=0", "asOf=soon", "from=9&to=1", "order=sideways", "to=x"} {
		if code, m := f.get(t, "/stores/prices/versions/tea?"+bad); code != 400 {
			t.Errorf("%s: %d %v, want 400", bad, code, m)
		}
	}
	if code, _ := f.get(t, "/stores/counts/versions/apple"); code != 400 {
		t.Errorf("versions of a key-value store: %d", code)
	}
	if code, _ := f.get(t, "/stores/prices/keys/tea"); code != 400 {
		t.Errorf("key-value route on a versioned store: %d", code)
	}
}

// TestAllClampsTheLimitAndContinues: a limit above the ceiling is clamped
// to it, and a truncated listing's next, passed back as after, gives the
// entries past it, until every key was listed once and in order.
func TestAllClampsTheLimitAndContinues(t *testing.T) {
	f := newFixture(t, "")
	for _, route := range []string{"/stores/counts/all?limit=1000", "/stores/counts/range?from=apricot&to=cherry&limit=2",
		"/stores/counts/prefix/a?limit=1"} {
		var keys []string
		path := route
		for pages := 0; ; pages++ {
			if pages > 5 {
				t.Fatalf("%s: no end after %d pages: %v", route, pages, keys)
			}
			code, m := f.get(t, path)
			res, _ := m["results"].([]any)
			if code != 200 {
				t.Fatalf("%s: %d %v", path, code, m)
			}
			for _, r := range res {
				keys = append(keys, r.(map[string]any)["key"].(string))
			}
			next, _ := m["next"].(string)
			if m["truncated"] != (next != "") {
				t.Fatalf("%s: truncated %v with next %q", path, m["truncated"], next)
			}
			if next == "" {
				break
			}
			path = route + "&after=" + next
		}
		want := map[string]string{
			"/stores/counts/all?limit=1000":                       "apple,apricot,avocado,banana,cherry",
			"/stores/counts/range?from=apricot&to=cherry&limit=2": "apricot,avocado,banana,cherry",
			"/stores/counts/prefix/a?limit=1":                     "apple,apricot,avocado",
		}[route]
		if got := strings.Join(keys, ","); got != want {
			t.Errorf("%s, page by page: %s, want %s", route, got, want)
		}
	}
	for path, want := range map[string]string{
		"/stores/counts/all?after=!!":  `after "!!": not a continuation this server gave as next`,
		"/stores/counts/all?limit=0":   `limit "0": must be a positive integer`,
		"/stores/counts/all?limit=ten": `limit "ten": must be a positive integer`,
	} {
		if code, m := f.get(t, path); code != 400 || m["error"] != want {
			t.Errorf("%s: %d %v, want 400 and %q", path, code, m, want)
		}
	}
}

// TestEmptyKeyIsQueryable: a key route's path ending in / queries the
// empty key, which {key} cannot match.
func TestEmptyKeyIsQueryable(t *testing.T) {
	f := newFixture(t, "")
	p := kstreams.DefaultPartition([]byte{}, 2)
	if err := f.kv[p].Put([]byte{}, storeformat.AppendTimestamped(nil, 7, long(42))); err != nil {
		t.Fatal(err)
	}
	if err := f.kv[p].Commit(nil); err != nil {
		t.Fatal(err)
	}
	code, m := f.get(t, "/stores/counts/keys/")
	if code != 200 || m["key"] != "" || m["value"] != 42.0 {
		t.Errorf("the empty key: %d %v", code, m)
	}
	if code, m := f.get(t, "/stores/counts/metadata/"); code != 200 || m["key"] != "" {
		t.Errorf("the empty key's metadata: %d %v", code, m)
	}
}
