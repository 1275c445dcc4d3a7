package rocksdb

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/state"
)

// commitN stages records puts and commits offset off on tp.
func commitN(t testing.TB, s state.KeyValueStore, tp state.TopicPartition, records int, off int64) {
	t.Helper()
	for i := 0; i < records; i++ {
		if err := s.Put([]byte(fmt.Sprintf("k%05d", (int(off)+i)%5000)), make([]byte, 64)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Commit(map[state.TopicPartition]*int64{tp: state.Offset(off)}); err != nil {
		t.Fatal(err)
	}
}

func TestFlushPolicyBoundsDurableLagAfterEachCommit(t *testing.T) {
	tp := state.TopicPartition{Topic: "app-counts-changelog", Partition: 0}
	for _, tc := range []struct {
		name   string
		policy state.FlushPolicy
	}{{"records", state.FlushPolicy{MaxLagRecords: 500}}, {"off", state.FlushPolicy{}}} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := OpenKeyValue(t.TempDir(), state.KeyValueOptions{Name: "counts"}, Options{Flush: tc.policy})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			d, ok := state.AsDurable(s)
			if !ok {
				t.Fatal("a RocksDB store is not Durable")
			}
			var worst int64
			for off := int64(9); off < 20_000; off += 10 {
				commitN(t, s, tp, 10, off)
				worst = max(worst, d.DurableLag(time.Now()).Records)
			}
			l := d.DurableLag(time.Now())
			if tc.policy.MaxLagRecords == 0 {
				// 2,000 small commits fit in the 16 MiB write buffer: nothing
				// flushed, the whole history is the lag.
				if l.Records != 19_999+1 || l.Flushes != 0 || l.Age <= 0 {
					t.Fatalf("without a policy: lag %+v, want 20000 offsets, no flush, an age", l)
				}
				return
			}
			if worst > tc.policy.MaxLagRecords {
				t.Fatalf("lag after a commit reached %d offsets, bound %d", worst, tc.policy.MaxLagRecords)
			}
			if l.Flushes < 20_000/500 {
				t.Fatalf("%d policy flushes for 20,000 offsets at a bound of 500", l.Flushes)
			}
			t.Logf("worst lag %d offsets, %d flushes", worst, l.Flushes)
		})
	}
}

func TestFlushPolicyTimeBoundFlushesAnIdleStore(t *testing.T) {
	tp := state.TopicPartition{Topic: "app-quiet-changelog", Partition: 3}
	s, err := OpenKeyValue(t.TempDir(), state.KeyValueOptions{Name: "quiet"}, Options{Flush: state.FlushPolicy{MaxLag: 50 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d, _ := state.AsDurable(s)
	commitN(t, s, tp, 3, 2)
	if l := d.DurableLag(time.Now()); l.Records != 3 || l.Age < 0 {
		t.Fatalf("after the first commit: %+v, want 3 offsets", l)
	}
	// No commit follows: the stream thread's MaybeFlush must flush it once
	// the bound passed, and not before.
	if err := d.MaybeFlush(time.Now()); err != nil {
		t.Fatal(err)
	}
	if l := d.DurableLag(time.Now()); l.Flushes != 0 {
		t.Fatalf("flushed before the time bound: %+v", l)
	}
	time.Sleep(60 * time.Millisecond)
	if err := d.MaybeFlush(time.Now()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		// The flush runs in the background; the next check sees it done.
		if err := d.MaybeFlush(time.Now()); err != nil {
			t.Fatal(err)
		}
		l := d.DurableLag(time.Now())
		if l.Records == 0 && l.Age == 0 {
			if l.Flushes != 1 {
				t.Fatalf("%d flushes, want 1", l.Flushes)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still not durable after the time bound: %+v", l)
		}
		time.Sleep(5 * time.Millisecond)
	}
	// Commits that move no offset leave nothing to flush.
	if err := s.Commit(map[state.TopicPartition]*int64{tp: state.Offset(2)}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(60 * time.Millisecond)
	if err := d.MaybeFlush(time.Now()); err != nil {
		t.Fatal(err)
	}
	if l := d.DurableLag(time.Now()); l.Flushes != 1 || l.Age != 0 || l.Records != 0 {
		t.Fatalf("a commit that moved no offset: %+v", l)
	}
}

func TestFlushPolicySeesRocksDBsOwnFlushes(t *testing.T) {
	// A 64 KiB write buffer fills after a few commits: RocksDB flushes by
	// itself, and the lag must drop without any policy.
	tp := state.TopicPartition{Topic: "app-busy-changelog", Partition: 0}
	s, err := OpenKeyValue(t.TempDir(), state.KeyValueOptions{Name: "busy"}, Options{WriteBufferBytes: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d, _ := state.AsDurable(s)
	var peak int64
	for off := int64(99); off < 50_000; off += 100 {
		commitN(t, s, tp, 100, off)
		peak = max(peak, d.DurableLag(time.Now()).Records)
	}
	time.Sleep(200 * time.Millisecond)
	commitN(t, s, tp, 1, 50_000)
	l := d.DurableLag(time.Now())
	if l.Records >= 50_000 || l.Flushes != 0 {
		t.Fatalf("lag %+v: RocksDB's own flushes were not seen", l)
	}
	t.Logf("peak lag %d offsets with a 64 KiB write buffer", peak)
}

func TestFlushPolicyDuringRestore(t *testing.T) {
	tp := state.TopicPartition{Topic: "app-restore-changelog", Partition: 1}
	s, err := OpenKeyValue(t.TempDir(), state.KeyValueOptions{Name: "restore"}, Options{Flush: state.FlushPolicy{MaxLagRecords: 10_000}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d, _ := state.AsDurable(s)
	recs := make([]state.ChangelogRecord, 4096)
	for i := range recs {
		recs[i] = state.ChangelogRecord{Key: []byte(strconv.Itoa(i)), Value: []byte("v")}
	}
	for last := int64(4095); last < 100_000; last += 4096 {
		if err := s.ApplyChangelog(recs, tp, last); err != nil {
			t.Fatal(err)
		}
		if l := d.DurableLag(time.Now()); l.Records > 10_000 {
			t.Fatalf("restore batch to %d: lag %d past the bound", last, l.Records)
		}
	}
}

// The policy crash test: a child commits 10 offsets per commit with a
// policy of 200 and a write buffer that never fills; after each SIGKILL the
// reopened store's offset is at most the bound plus one commit behind the
// last commit the child reported.
const (
	policyCrashEnv   = "STOATFLOW_STATE_POLICY_CRASH_CHILD"
	policyCrashBound = 200
	policyCrashStep  = 10
)

func init() {
	crashKinds["kv-policy"] = func(dir string, _ bool) (crashSubject, error) {
		s, err := OpenKeyValue(dir, state.KeyValueOptions{Name: "crash"}, Options{Flush: state.FlushPolicy{MaxLagRecords: policyCrashBound}})
		if err != nil {
			return nil, err
		}
		return &kvCrash{KeyValueStore: s}, nil
	}
}

func policyCrashChild(dir string) error {
	s, err := crashKinds["kv-policy"](dir, false)
	if err != nil {
		return err
	}
	n := int64(0)
	if o, ok, err := s.CommittedOffset(crashTP); err != nil {
		return err
	} else if ok {
		n = o
	}
	w := bufio.NewWriter(os.Stdout)
	fmt.Fprintln(w, "ready")
	w.Flush()
	for {
		n += policyCrashStep
		if err := s.write(n); err != nil {
			return err
		}
		if err := s.Commit(map[state.TopicPartition]*int64{crashTP: state.Offset(n)}); err != nil {
			return err
		}
		fmt.Fprintln(w, n)
		w.Flush()
	}
}

func TestFlushPolicyCrashReplayBound(t *testing.T) {
	if raceEnabled {
		t.Skip("crash tests run in the pass without -race")
	}
	kills := 30
	if testing.Short() {
		kills = 10
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	var worst, worstDone int64
	for k := 0; k < kills; k++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashChildEnv+"=kv-policy", crashDirEnv+"="+dir, policyCrashEnv+"=1")
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(out)
		if line, err := r.ReadString('\n'); err != nil || line != "ready\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("kill %d: child did not start: %q %v", k, line, err)
		}
		lines := make(chan int64, 1)
		go func() {
			var last int64 = -1
			sc := bufio.NewScanner(r)
			for sc.Scan() {
				if n, err := strconv.ParseInt(sc.Text(), 10, 64); err == nil {
					last = n
				}
			}
			lines <- last
		}()
		time.Sleep(time.Duration(50+rng.Intn(300)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		last := <-lines
		cmd.Wait()

		s, err := crashKinds["kv-policy"](dir, false)
		if err != nil {
			t.Fatalf("kill %d: reopen: %v", k, err)
		}
		n, serr := s.state()
		off, ok, oerr := s.CommittedOffset(crashTP)
		s.Close()
		if serr != nil || oerr != nil {
			t.Fatalf("kill %d: %v %v", k, serr, oerr)
		}
		if !ok {
			off = 0
		}
		if n != off && !(n == -1 && off == 0) {
			t.Fatalf("kill %d: data of commit %d, offset %d", k, n, off)
		}
		if last < 0 {
			continue
		}
		lag := last - off
		worst = max(worst, lag)
		worstDone = max(worstDone, last)
		if lag > policyCrashBound+policyCrashStep {
			t.Errorf("kill %d: reopened at offset %d, %d behind the last reported commit %d: bound %d + one commit of %d",
				k, off, lag, last, policyCrashBound, policyCrashStep)
		}
	}
	if worstDone < 10*policyCrashBound {
		t.Fatalf("children committed only up to offset %d: the test exercised nothing", worstDone)
	}
	t.Logf("policy crash: kills=%d largest loss %d offsets (bound %d + %d), last offset %d", kills, worst, policyCrashBound, policyCrashStep, worstDone)
}
