package compat

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestClusterCheckReachesTheBrokers: by default every client names the
// cluster and node it expects in the ApiVersions request of each
// connection to a broker it learnt from metadata (KIP-1242), so a broker
// that is another answers REBOOTSTRAP_REQUIRED; with
// metadata.cluster.check.enable=false no ApiVersions request names them.
func TestClusterCheckReachesTheBrokers(t *testing.T) {
	for _, tc := range []struct {
		extra string
		named bool
	}{{"", true}, {"metadata.cluster.check.enable=false\n", false}, {"admin.metadata.cluster.check.enable=false\n", false}} {
		cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "in"))
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var versions []int16
		named := 0
		cluster.ControlKey(18, func(req kmsg.Request) (kmsg.Response, error, bool) {
			cluster.KeepControl()
			r := req.(*kmsg.ApiVersionsRequest)
			mu.Lock()
			versions = append(versions, r.Version)
			if r.ClusterID != nil {
				named++
			}
			mu.Unlock()
			return nil, nil, false
		})
		c, diags := load(t, "application.id=app\nbootstrap.servers="+cluster.ListenAddrs()[0]+"\n"+tc.extra)
		if diags.HasErrors() {
			t.Fatal(diags.Errors())
		}
		opts, err := c.AdminOptions("pid")
		if err != nil {
			t.Fatal(err)
		}
		cl, err := kgo.NewClient(opts...)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		// The seed connection learns the cluster and its broker; the
		// request to the broker by its node id opens a second connection.
		if _, err := kmsg.NewPtrMetadataRequest().RequestWith(ctx, cl); err != nil {
			t.Fatal(err)
		}
		req := kmsg.NewPtrListGroupsRequest()
		if _, err := cl.Broker(0).Request(ctx, req); err != nil {
			t.Fatal(err)
		}
		cancel()
		cl.Close()
		cluster.Close()
		mu.Lock()
		if tc.named && named == 0 {
			t.Errorf("%q: no ApiVersions request named the cluster (versions %v)", tc.extra, versions)
		}
		if !tc.named {
			if named > 0 {
				t.Errorf("%q: %d ApiVersions requests named the cluster", tc.extra, named)
			}
			for _, v := range versions {
				if v > apiVersionsWithoutClusterCheck {
					t.Errorf("%q: ApiVersions v%d, want v%d at most", tc.extra, v, apiVersionsWithoutClusterCheck)
				}
			}
		}
		mu.Unlock()
	}
}
