package streams_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/streams"
)

// TestKfakeMetadataOfTwoInstances: two instances of one application, each
// with an application.server, see the same host maps once the group has
// settled: AllMetadata lists both (this one included) with the count
// store's repartition partitions split between them, and MetadataForKey
// names, for every word, the instance whose LocalStores hold the word's
// partition. Before Start the calls refuse; after Close they say the
// instance is not running.
func TestKfakeMetadataOfTwoInstances(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	topo := countTopology(t, "in", "out")
	hosts := []string{"stoat-a:7070", "stoat-b:7071"}
	var ks []*streams.KafkaStreams
	for _, h := range hosts {
		cfg := appConfig(t, addr, "md", t.TempDir(), "application.server="+h)
		if i := len(ks); i == 0 {
			early, err := streams.New(topo, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := early.MetadataForKey("counts", []byte("otter")); !errors.Is(err, streams.ErrNotStarted) {
				t.Errorf("before Start: %v, want ErrNotStarted", err)
			}
			if err := early.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		ks = append(ks, startApp(t, topo, cfg))
	}
	vocab := []string{"otter", "badger", "stoat", "weasel", "marten", "mink", "ferret", "wolverine", "sable"}
	words(t, addr, "in", 0, 90, vocab)
	readCounts(t, addr, "out", 90)

	// settled reports whether both instances run, agree, and every
	// word's active host holds its partition open.
	settled := func() (bool, string) {
		for i, k := range ks {
			if k.State() != streams.Running {
				return false, "instance not RUNNING"
			}
			all := k.AllMetadata()
			if len(all) != 2 || all[0].Host.String() != hosts[0] || all[1].Host.String() != hosts[1] {
				return false, "AllMetadata lists " + hostsOf(all)
			}
			for _, md := range all {
				if !slices.Contains(md.StateStoreNames, "counts") {
					return false, md.Host.String() + " has no active counts partition"
				}
			}
			if got := k.AllMetadataForStore("counts"); len(got) != 2 {
				return false, "AllMetadataForStore(counts) lists " + hostsOf(got)
			}
			for _, w := range vocab {
				md, err := k.MetadataForKey("counts", []byte(w))
				if err != nil {
					t.Fatalf("instance %d, %q: %v", i, w, err)
				}
				owner := slices.Index(hosts, md.ActiveHost.String())
				if owner < 0 {
					return false, w + " has active host " + md.ActiveHost.String()
				}
				open := false
				for _, ls := range ks[owner].LocalStores("counts") {
					open = open || ls.Partition == md.Partition
				}
				if !open {
					return false, w + "'s partition is not open on its active host yet"
				}
			}
		}
		return true, ""
	}
	deadline := time.Now().Add(time.Minute)
	for {
		ok, why := settled()
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the two instances' metadata did not settle in a minute: %s", why)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := ks[0].MetadataForKey("no-such-store", []byte("otter")); !errors.Is(err, streams.ErrUnknownStore) {
		t.Errorf("unknown store: %v, want ErrUnknownStore", err)
	}
	for _, k := range ks {
		closeApp(t, k)
	}
	if _, err := ks[0].MetadataForKey("counts", []byte("otter")); !errors.Is(err, streams.ErrNotRunning) {
		t.Errorf("after Close: %v, want ErrNotRunning", err)
	}
	if got := ks[0].AllMetadata(); got != nil {
		t.Errorf("AllMetadata after Close: %v", got)
	}
}

func hostsOf(all []streams.StreamsMetadata) string {
	s := "["
	for i, md := range all {
		if i > 0 {
			s += " "
		}
		s += md.Host.String()
	}
	return s + "]"
}
