package integration

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"time"

	"github.com/stoatflow/stoatflow/internal/failpoint"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// The multi-instance crash workloads: the crash suite's checks (I1-I5,
// docs/crash-testing.md) over a fleet of instances in one group, of which
// one at a time is killed and restarted while the others go on, so that
// kills land in rebalances (the rebalance-callback failpoint fires on the
// instances that stay as well as on the one that joins) and tasks move
// between state directories. With jvm, a Kafka Streams 4.4 instance of the
// same application is a member too: it is killed now and then (SIGKILL),
// and its stores, in Kafka Streams' format, are not opened; the output
// check covers what it wrote.

// crashMember is one instance of a crash fleet.
type crashMember struct {
	name    string
	jvm     bool
	dir     string
	offsets map[string]int64 // the restore check's store offsets of dir (see crashRun.offsets)
	c       *child
	ref     *ReferenceApp
}

// startMember starts m's process; env sets failpoints of a StoatFlow
// member.
func (r *crashRun) startMember(m *crashMember, env ...string) {
	t := r.t
	set := maps.Clone(r.spec.Set)
	set["state.dir"] = m.dir
	if m.jvm {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		root, err := RepoRoot()
		if err != nil {
			t.Fatal(err)
		}
		ref, err := StartReference(ctx, ReferenceOptions{App: r.w.topology,
			Configs: []string{filepath.Join(root, "examples", r.w.example, "streams.properties")}, Set: set, Args: r.args})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(ref.Kill)
		if err := ref.WaitState(ctx, "RUNNING"); err != nil {
			t.Fatal(err)
		}
		m.ref = ref
		return
	}
	spec := r.spec
	spec.Set = set
	m.c = startChild(t, spec, env...)
}

// checkMember runs the per-kill checks on a StoatFlow member's run that
// ended: its first restores against the offsets its directory held (I4),
// its queries, and its stores against their changelogs (I1, I2).
func (r *crashRun) checkMember(m *crashMember) {
	saved := r.offsets
	r.offsets = m.offsets
	defer func() { r.offsets = saved }()
	t0 := time.Now()
	r.checkRestores(m.c)
	r.collectQueries(m.c)
	r.checkStoresIn(m.dir, true)
	r.stats.checkTime += time.Since(t0)
}

// runFleetKills runs the fleet until it has had kills kills: two StoatFlow
// members, and with jvm a Kafka Streams one. Each step picks a member: a
// StoatFlow one is killed at a random moment, restarted with the next
// kill mode of the schedule and ended as it says (a failpoint, a SIGKILL
// at a random moment or a clean stop), each end checked, and restarted
// without failpoints; the Kafka Streams one (every fourth step) is killed
// and restarted. The input flows throughout. Then every member stops
// cleanly, and the last run of the single-instance suite processes
// everything and checks the output.
func (r *crashRun) runFleetKills(kills int, jvm bool) {
	t := r.t
	members := []*crashMember{
		{name: "S1", dir: r.stateDir, offsets: r.offsets},
		{name: "S2", dir: t.TempDir(), offsets: map[string]int64{}},
	}
	if jvm {
		members = append(members, &crashMember{name: "J1", jvm: true, dir: t.TempDir()})
	}
	if err := r.feed(r.w.perRound); err != nil {
		t.Fatal(err)
	}
	if r.spec.Set["group.protocol"] == "streams" {
		cl, err := testkafka.NewClient(r.bootstrap)
		if err != nil {
			t.Fatal(err)
		}
		setStreamsGroupConfigs(t, cl, r.appID, r.spec.Set)
		cl.Close()
	}
	for _, m := range members {
		r.startMember(m)
	}
	for _, m := range members {
		if m.c != nil {
			m.c.wait(t, "RUNNING", 2*time.Minute)
		}
	}
	stopFeed := make(chan struct{})
	fed := r.feedWhile(stopFeed)
	modes := r.schedule(kills)
	moved := map[string]int{}
	for step := 0; r.stats.kills < kills && step < 4*kills; step++ {
		if jvm && step%4 == 3 {
			m := members[2]
			time.Sleep(time.Duration(200+r.rng.IntN(1500)) * time.Millisecond)
			m.ref.Kill()
			r.stats.kills++
			r.stats.byMode["jvm"]++
			r.startMember(m)
			continue
		}
		m := members[r.rng.IntN(2)]
		moved[m.name]++
		// The member has run since the last step: kill it now.
		time.Sleep(time.Duration(200+r.rng.IntN(1500)) * time.Millisecond)
		m.c.kill()
		r.stats.kills++
		r.stats.byMode["timed"]++
		r.checkMember(m)
		// Then one run ended by the schedule's next mode.
		mode := modes[step%len(modes)]
		var env []string
		if mode.failpoint != "" {
			env = append(env, failpoint.EnvVar+"="+mode.failpoint)
		}
		if mode.name == failpoint.StandbyPromote || mode.name == failpoint.StandbyDemote {
			r.standbyStep(m, members[1-slices.Index(members[:2], m)], mode, env)
			continue
		}
		r.startMember(m, env...)
		r.endMemberRun(m, mode)
		r.checkMember(m)
		r.startMember(m)
		m.c.wait(t, "RUNNING", 2*time.Minute)
		if t.Failed() && r.stats.divergences > 20 {
			break
		}
	}
	close(stopFeed)
	if err := <-fed; err != nil {
		t.Fatal(err)
	}
	for _, m := range members {
		if m.jvm {
			if err := m.ref.Stop(45 * time.Second); err != nil {
				t.Fatal(err)
			}
			continue
		}
		m.c.stop(t)
		r.checkMember(m)
	}
	t.Logf("crash fleet %s: members %d, steps per StoatFlow member %v", r.w.name, len(members), moved)
	r.offsets = members[0].offsets
	r.finish()
}

// standbyStep arms m with a standby transition's failpoint and makes the
// group run that transition on it: a standby becomes active on m when the
// other StoatFlow member o dies (m takes o's tasks from its standbys once
// o's session has timed out); an active task becomes a standby on m when o
// comes back and takes its tasks again. Then both restart unarmed.
func (r *crashRun) standbyStep(m, o *crashMember, mode killMode, env []string) {
	t := r.t
	r.startMember(m, env...)
	m.c.wait(t, "RUNNING", 2*time.Minute)
	// Its standbys catch up with their changelogs.
	time.Sleep(time.Second)
	o.c.kill()
	r.stats.kills++
	r.stats.byMode["timed"]++
	r.checkMember(o)
	if mode.name == failpoint.StandbyDemote {
		// m takes o's tasks after o's session (6 s), then o comes back.
		time.Sleep(8 * time.Second)
		r.startMember(o)
	}
	mode.after = 30 * time.Second
	r.endMemberRun(m, mode)
	r.checkMember(m)
	if mode.name == failpoint.StandbyPromote {
		r.startMember(o)
	}
	r.startMember(m)
	o.c.wait(t, "RUNNING", 2*time.Minute)
	m.c.wait(t, "RUNNING", 2*time.Minute)
}

// endMemberRun ends a member's run as mode says, counting it.
func (r *crashRun) endMemberRun(m *crashMember, mode killMode) {
	if mode.clean {
		m.c.wait(r.t, "RUNNING", 2*time.Minute)
	}
	r.endRun(m.c, mode, "member "+m.name+", ")
}

// fleetWorkload is w over four partitions, so that the fleet's members
// share its tasks.
func fleetWorkload(w crashWorkload) crashWorkload {
	w.partitions = 4
	w.perTick = 5
	return w
}

// defaultFleetKills is the kills per fleet workload in make test; the soak
// (-crash.kills=200) runs the full figure.
const defaultFleetKills = 12
