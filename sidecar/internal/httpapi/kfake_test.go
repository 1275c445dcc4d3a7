package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/sidecar/internal/httpapi"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
)

// TestKfakeHTTPQueriesDuringCommits serves the interactive-query routes of
// a running instance while it processes and commits, and queries them from
// several goroutines at both isolation levels: every answer is a count the
// input can produce, READ_COMMITTED counts never go back, and once the
// input is committed every route answers the final counts.
func TestKfakeHTTPQueriesDuringCommits(t *testing.T) {
	_, addr := startBroker(t)
	testkafka.CreateTopics(t, addr, 2, "in", "out")
	topo := countTopology(t, "in", "out")
	ks := startApp(t, topo, appConfig(t, addr, "http", t.TempDir()))
	srv, err := httpapi.New(httpapi.Config{
		Listen: "127.0.0.1:0", ApplicationID: "http", Isolation: state.ReadCommitted, Streams: ks, Topology: topo,
		DefaultKeySerde: serde.Erase[string](serde.String{}), DefaultValueSerde: serde.Erase[string](serde.String{}),
		Partitions: func(context.Context, string) (int, error) { return 2, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()

	get := func(path string) (int, map[string]any, error) {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			return 0, nil, err
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			return resp.StatusCode, nil, fmt.Errorf("%s: %v: %s", path, err, b)
		}
		return resp.StatusCode, m, nil
	}

	const total = 900
	want := wantCounts(total, vocab)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var answered atomic.Int64
	for _, iso := range []string{"READ_COMMITTED", "READ_UNCOMMITTED"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := map[string]float64{}
			for ctx.Err() == nil {
				for _, w := range vocab {
					code, m, err := get("/stores/counts/keys/" + url.PathEscape(w) + "?isolation=" + iso)
					if err != nil {
						t.Error(err)
						return
					}
					switch code {
					case http.StatusOK:
					case http.StatusNotFound, http.StatusServiceUnavailable:
						continue // not counted yet; or the task is not running
					default:
						t.Errorf("%s %q: HTTP %d %v", iso, w, code, m)
						return
					}
					answered.Add(1)
					n, _ := m["value"].(float64)
					if final := float64(want[w][len(want[w])-1]); n < 1 || n > final || m["isolation"] != iso {
						t.Errorf("%s %q: answer %v, want a count in 1..%v at that isolation", iso, w, m, final)
					}
					if iso == "READ_COMMITTED" {
						if n < last[w] {
							t.Errorf("READ_COMMITTED count of %q went back from %v to %v", w, last[w], n)
						}
						last[w] = n
					}
				}
			}
		}()
	}
	feed(t, addr, "in", 30, total)
	checkCounts(t, readCounts(t, addr, "out", total), want)
	cancel()
	wg.Wait()
	if answered.Load() == 0 {
		t.Fatal("no query was answered while the instance ran")
	}

	for _, w := range vocab {
		code, m, err := get("/stores/counts/keys/" + url.PathEscape(w))
		if err != nil || code != http.StatusOK || m["value"] != float64(want[w][len(want[w])-1]) {
			t.Errorf("after the input was committed, %q: HTTP %d %v %v, want count %d", w, code, m, err, want[w][len(want[w])-1])
		}
	}
	code, m, err := get("/stores/counts/all")
	if err != nil || code != http.StatusOK {
		t.Fatalf("all: HTTP %d %v", code, err)
	}
	res, _ := m["results"].([]any)
	if len(res) != len(vocab) {
		t.Errorf("all: %d entries, want %d: %v", len(res), len(vocab), m)
	}
	for _, r := range res {
		e, _ := r.(map[string]any)
		w, _ := e["key"].(string)
		if seq := want[w]; len(seq) == 0 || e["value"] != float64(seq[len(seq)-1]) {
			t.Errorf("all: entry %v, want the final count of %q", e, w)
		}
	}
	closeApp(t, ks)
}

// TestKfakeReadyzSaysWhyTheBrokerIsUnreachable starts an instance whose
// bootstrap address has no broker yet: /readyz answers 503 and names the
// address and the refused connection; once a broker listens there the
// instance starts without a restart, the failure clears and /readyz
// answers 200.
func TestKfakeReadyzSaysWhyTheBrokerIsUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	addr := fmt.Sprintf("127.0.0.1:%d", port)

	topo := countTopology(t, "in", "out")
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	ks, err := streams.New(topo, appConfig(t, addr, "readyz", t.TempDir()), streams.WithLogger(quiet))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := httpapi.New(httpapi.Config{
		Listen: "127.0.0.1:0", ApplicationID: "readyz", Isolation: state.ReadCommitted, Streams: ks, Topology: topo,
		DefaultKeySerde: serde.Erase[string](serde.String{}), DefaultValueSerde: serde.Erase[string](serde.String{}),
		Partitions: func(context.Context, string) (int, error) { return 2, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	readyz := func() (int, map[string]string) {
		resp, err := http.Get(ts.URL + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]string
		if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, m
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	started := make(chan error, 1)
	go func() { started <- ks.Start(ctx) }()
	defer func() {
		cctx, ccancel := context.WithTimeout(context.Background(), time.Minute)
		defer ccancel()
		_ = ks.Close(cctx)
	}()

	deadline := time.Now().Add(30 * time.Second)
	for ks.BrokerFailure() == "" {
		if time.Now().After(deadline) {
			t.Fatal("no broker failure reported after 30 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	code, body := readyz()
	if code != http.StatusServiceUnavailable || !strings.Contains(body["broker"], addr) ||
		!strings.Contains(body["broker"], "connection refused") || !strings.Contains(body["broker"], "Check:") {
		t.Fatalf("readyz with no broker: %d %v", code, body)
	}
	t.Logf("readyz without a broker: %d %v", code, body)

	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.Ports(port), kfake.SeedTopics(2, "in", "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := <-started; err != nil {
		t.Fatalf("start once the broker is up: %v", err)
	}
	deadline = time.Now().Add(time.Minute)
	for {
		code, body = readyz()
		if code == http.StatusOK && body["broker"] == "" && ks.BrokerFailure() == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("readyz a minute after the broker came up: %d %v", code, body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestKfakeHTTPGlobalStoreAtBothIsolations: with commits every eight
// seconds, an update the global thread applied is in the overlay only:
// the key route answers it at READ_UNCOMMITTED and the restored row at
// READ_COMMITTED. Once an update larger than the global thread's share of
// statestore.uncommitted.max.bytes made it commit, the READ_COMMITTED
// listing holds both rows. (streams'
// TestKfakeGlobalStoreIsolationAndUncommittedBudget checks the same
// through the Go store handles.)
func TestKfakeHTTPGlobalStoreAtBothIsolations(t *testing.T) {
	_, addr := startBroker(t)
	testkafka.CreateTopics(t, addr, 2, "g", "s", "out")
	testkafka.Produce(t, addr, testkafka.Record{Topic: "g", Partition: testkafka.AnyPartition, Key: []byte("b"), Value: []byte("B")})
	topo := globalJoinTopology(t, "g", "s", "out")
	ks := startApp(t, topo, appConfig(t, addr, "global-iso", t.TempDir(),
		"commit.interval.ms=8000", "statestore.uncommitted.max.bytes=200"))
	srv, err := httpapi.New(httpapi.Config{
		Listen: "127.0.0.1:0", ApplicationID: "global-iso", Isolation: state.ReadCommitted, Streams: ks, Topology: topo,
		DefaultKeySerde: serde.Erase[string](serde.String{}), DefaultValueSerde: serde.Erase[string](serde.String{}),
		Partitions: func(context.Context, string) (int, error) { return 2, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	query := func(path string) map[string]any {
		t.Helper()
		resp, err := http.Get(hs.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: HTTP %d %s", path, resp.StatusCode, b)
		}
		return m
	}

	testkafka.Produce(t, addr, testkafka.Record{Topic: "g", Partition: testkafka.AnyPartition, Key: []byte("b"), Value: []byte("B2")})
	waitGlobal(t, ks, "b", "B2", state.ReadUncommitted, 30*time.Second)
	if m := query("/stores/g-store/keys/b?isolation=READ_UNCOMMITTED"); m["value"] != "B2" {
		t.Errorf("HTTP READ_UNCOMMITTED b = %v, want B2", m)
	}
	if m := query("/stores/g-store/keys/b?isolation=READ_COMMITTED"); m["value"] != "B" {
		t.Errorf("HTTP READ_COMMITTED b = %v, want B", m)
	}

	big := strings.Repeat("x", 300)
	testkafka.Produce(t, addr, testkafka.Record{Topic: "g", Partition: testkafka.AnyPartition, Key: []byte("c"), Value: []byte(big)})
	// Committed for the budget, well before commit.interval.ms.
	waitGlobal(t, ks, "c", big, state.ReadCommitted, 3*time.Second)
	m := query("/stores/g-store/all?isolation=READ_COMMITTED")
	if res, _ := m["results"].([]any); len(res) != 2 {
		t.Errorf("HTTP all: %v, want rows b and c", m)
	}
	closeApp(t, ks)
}
