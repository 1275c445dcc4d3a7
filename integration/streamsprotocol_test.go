package integration

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/internal/streamsgroup"
)

// TestWordCountStreamsProtocolMatchesClassic runs the word count under
// exactly_once_v2 twice on the same input, once with group.protocol=classic
// and once with group.protocol=streams (KIP-1071), and requires the same
// committed output of both, each word's counts in order. Under streams the
// instance's threads are the streams group's members, with its process id,
// and between them own every task the broker assigns.
func TestWordCountStreamsProtocolMatchesClassic(t *testing.T) {
	t.Parallel()
	const partitions = 4
	var lines []string
	for i := range 40 {
		lines = append(lines, sampleLines[i%len(sampleLines)], fmt.Sprintf("word%d kafka w%d", i%9, i%5))
	}
	want, total := expectedUpdates(lines)
	for _, threads := range []int{1, 2} {
		t.Run(fmt.Sprintf("threads=%d", threads), func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()
			set := func(protocol string) map[string]string {
				return map[string]string{
					"processing.guarantee": "exactly_once_v2",
					"num.stream.threads":   fmt.Sprint(threads),
					"commit.interval.ms":   "100",
					"group.protocol":       protocol,
				}
			}
			classic, sg := newWordCountApp(t, partitions), newWordCountApp(t, partitions)
			classic.feed(t, lines, partitions)
			sg.feed(t, lines, partitions)

			ksClassic := classic.start(t, ctx, set("classic"), nil)
			defer ksClassic.Close(context.Background())
			ks := sg.start(t, ctx, set("streams"), nil)
			defer ks.Close(context.Background())

			gotClassic := readUpdates(t, classic.bootstrap, classic.out, total)
			got := readUpdates(t, sg.bootstrap, sg.out, total)
			checkUpdates(t, gotClassic, want)
			checkUpdates(t, got, want)
			for w, seq := range gotClassic {
				if fmt.Sprint(got[w]) != fmt.Sprint(seq) {
					t.Errorf("word %q: streams protocol %v, classic %v", w, got[w], seq)
				}
			}

			cl, err := kgo.NewClient(kgo.SeedBrokers(sg.bootstrap))
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			admin := kadm.NewClient(cl)
			members, err := describeStreamsGroupMembers(ctx, cl, admin, sg.appID)
			if err != nil {
				t.Fatalf("describing the streams group %s: %v", sg.appID, err)
			}
			if len(members) != threads {
				t.Fatalf("the streams group has %d members, want one per thread (%d)", len(members), threads)
			}
			var owned []streamsgroup.TaskID
			for _, m := range members {
				if m.ProcessID != ks.ProcessID() {
					t.Errorf("member %s has process id %s, want the instance's %s", m.MemberID, m.ProcessID, ks.ProcessID())
				}
				owned = append(owned, describedTasks(m.Assignment.ActiveTasks)...)
			}
			slices.SortFunc(owned, cmpTask)
			if len(owned) != 2*partitions || len(slices.Compact(slices.Clone(owned))) != len(owned) {
				t.Errorf("the members own the active tasks %v, want each of the %d tasks once", owned, 2*partitions)
			}

			if err := ks.Close(ctx); err != nil {
				t.Fatal(err)
			}
			if err := ksClassic.Close(ctx); err != nil {
				t.Fatal(err)
			}
		})
	}
}
