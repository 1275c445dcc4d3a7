package httpapi_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/sidecar/internal/httpapi"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
)

// TestKfakeTwoInstancesAnswerEveryKeyByForwarding runs two StoatFlow
// instances of one application in one group, each with its HTTP API at its
// application.server: once the input is counted, either instance answers
// every word's final count, from its own store or by forwarding to the
// instance the group's host maps name, and says which answered.
func TestKfakeTwoInstancesAnswerEveryKeyByForwarding(t *testing.T) {
	_, addr := startBroker(t)
	testkafka.CreateTopics(t, addr, 2, "in", "out")
	topo := countTopology(t, "in", "out")

	type instance struct {
		ks   *streams.KafkaStreams
		ts   *httptest.Server
		host string
	}
	var ins [2]*instance
	for i := range ins {
		ts := httptest.NewUnstartedServer(nil)
		host := ts.Listener.Addr().String()
		cfg := appConfig(t, addr, "iq", t.TempDir(), "application.server="+host)
		ks := startApp(t, topo, cfg)
		srv, err := httpapi.New(httpapi.Config{
			Listen: "127.0.0.1:0", ApplicationID: "iq", ApplicationServer: host, Isolation: state.ReadCommitted,
			Streams: ks, Topology: topo, Remote: compat.QueryForward, RemoteTimeout: 5 * time.Second,
			DefaultKeySerde: serde.Erase[string](serde.String{}), DefaultValueSerde: serde.Erase[string](serde.String{}),
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Close() })
		ts.Config.Handler = srv
		ts.Start()
		t.Cleanup(ts.Close)
		ins[i] = &instance{ks: ks, ts: ts, host: host}
	}

	const total = 360
	want := wantCounts(total, vocab)
	feed(t, addr, "in", 30, total)
	checkCounts(t, readCounts(t, addr, "out", total), want)

	get := func(base, path string) (int, map[string]any, http.Header, error) {
		resp, err := http.Get(base + path)
		if err != nil {
			return 0, nil, nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			return 0, nil, nil, err
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			return resp.StatusCode, nil, resp.Header, fmt.Errorf("%s: %v: %s", path, err, b)
		}
		return resp.StatusCode, m, resp.Header, nil
	}

	// The group may still be rebalancing after the second instance joined:
	// a 503 is retried until every instance answers every word.
	deadline := time.Now().Add(time.Minute)
	forwarded := 0
	for i, in := range ins {
		for _, w := range vocab {
			final := float64(want[w][len(want[w])-1])
			for {
				code, m, hdr, err := get(in.ts.URL, "/stores/counts/keys/"+url.PathEscape(w))
				if err != nil {
					t.Fatal(err)
				}
				if code == http.StatusOK && m["value"] == final {
					answered := hdr.Get(httpapi.InstanceHeader)
					if answered != ins[0].host && answered != ins[1].host {
						t.Errorf("instance %d, %q: answered by %q, want one of the two", i, w, answered)
					}
					if answered != in.host {
						forwarded++
						if m["answeredBy"] != answered || hdr.Get(httpapi.ForwardedHeader) != in.host {
							t.Errorf("instance %d, %q: forwarded answer %v %v does not say who answered for whom", i, w, m, hdr)
						}
					}
					_, md, _, err := get(in.ts.URL, "/stores/counts/metadata/"+url.PathEscape(w))
					if err != nil {
						t.Fatal(err)
					}
					if md["activeHost"] != answered && time.Now().Before(deadline) {
						continue // the group moved the partition meanwhile: ask again
					}
					break
				}
				if code != http.StatusOK && code != http.StatusServiceUnavailable && code != http.StatusNotFound {
					t.Fatalf("instance %d, %q: HTTP %d %v", i, w, code, m)
				}
				if time.Now().After(deadline) {
					t.Fatalf("instance %d, %q: HTTP %d %v after a minute, want count %v", i, w, code, m, final)
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
	}
	t.Logf("%d of %d answers came from the other instance", forwarded, len(ins)*len(vocab))
	if forwarded == 0 {
		t.Error("no query was forwarded: one instance should host the other's partitions")
	}
	for i, in := range ins {
		code, m, _, err := get(in.ts.URL, "/metadata")
		if err != nil {
			t.Fatal(err)
		}
		list, _ := m["instances"].([]any)
		if code != http.StatusOK || len(list) != 2 {
			t.Errorf("instance %d /metadata: HTTP %d, instances %v, want both", i, code, list)
		}
	}
	for _, in := range ins {
		closeApp(t, in.ks)
	}
}
