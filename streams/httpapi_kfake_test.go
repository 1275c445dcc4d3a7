package streams_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stoatflow/stoatflow/internal/httpapi"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
)

// TestKfakeHTTPQueriesDuringCommits serves the interactive-query routes of
// a running instance while it processes and commits, and queries them from
// several goroutines at both isolation levels: every answer is a count the
// input can produce, READ_COMMITTED counts never go back, and once the
// input is committed every route answers the final counts.
func TestKfakeHTTPQueriesDuringCommits(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
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
	startFeeder(t, addr, "in", 30, total).wait(t)
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
