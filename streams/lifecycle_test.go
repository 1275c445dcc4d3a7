package streams

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/txn"
)

// nowhere is an address nothing listens on: every broker call waits until
// its timeout.
const nowhere = "127.0.0.1:1"

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func passThrough(t *testing.T, in, out string) *kstreams.Topology {
	t.Helper()
	b := kstreams.NewStreamsBuilder()
	kstreams.Stream(b, []string{in}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})).
		To(out, kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

func lifecycleConfig(t *testing.T, bootstrap, stateDir string, set ...string) *compat.Config {
	t.Helper()
	sets := append([]string{
		"application.id=lifecycle-" + strings.ReplaceAll(t.Name(), "/", "-"),
		"bootstrap.servers=" + bootstrap,
		"state.dir=" + stateDir,
		"processing.guarantee=exactly_once_v2",
	}, set...)
	cfg, diags := compat.LoadFiles(nil, sets, nil)
	if err := diags.Err(); err != nil {
		t.Fatal(err)
	}
	return cfg
}

func newInstance(t *testing.T, bootstrap, stateDir string, opts ...Option) *KafkaStreams {
	t.Helper()
	s, err := New(passThrough(t, "in", "out"), lifecycleConfig(t, bootstrap, stateDir), append([]Option{WithLogger(quiet)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func fakeCluster(t *testing.T, topics ...string) *kfake.Cluster {
	t.Helper()
	opts := []kfake.Opt{kfake.NumBrokers(1)}
	if len(topics) > 0 {
		opts = append(opts, kfake.SeedTopics(1, topics...))
	}
	c, err := kfake.NewCluster(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// canLock reports whether another instance could take the state directory
// now.
func canLock(t *testing.T, stateDir, appID string) bool {
	t.Helper()
	d, err := state.NewDirectory(stateDir, appID)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Lock(); err != nil {
		return false
	}
	d.Unlock()
	return true
}

func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func TestCloseBeforeStartTakesNothingAndIsIdempotent(t *testing.T) {
	dir := t.TempDir()
	s := newInstance(t, nowhere, dir)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.Close(context.Background()); err != nil {
				t.Errorf("Close before Start: %v", err)
			}
		}()
	}
	wg.Wait()
	if err := s.Close(context.Background()); err != nil {
		t.Errorf("Close again: %v", err)
	}
	if s.State() != NotRunning {
		t.Errorf("state %v, want NOT_RUNNING", s.State())
	}
	if !closed(s.Done()) {
		t.Error("Done not closed after closing an instance that never started")
	}
	if err := s.Start(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("Start after Close: %v, want ErrClosed", err)
	}
	if !canLock(t, dir, s.cfg.ApplicationID) {
		t.Error("the state directory is locked after Close of an instance that never started")
	}
}

// A Start that cannot reach the broker returns by its context's deadline,
// releases the state directory and may be retried.
func TestStartWithUnreachableBrokerReturnsByDeadlineAndReleasesTheLock(t *testing.T) {
	dir := t.TempDir()
	s := newInstance(t, nowhere, dir)
	for attempt := range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
		start := time.Now()
		err := s.Start(ctx)
		cancel()
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("attempt %d: Start returned after %v, want about its 1.5s deadline", attempt, took)
		}
		if err == nil {
			t.Fatal("Start succeeded without a broker")
		}
		for _, want := range []string{"metadata of source topic in", nowhere, "Start may be called again"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("attempt %d: error %q lacks %q", attempt, err, want)
			}
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("attempt %d: error %v does not say the deadline passed", attempt, err)
		}
		if s.State() != Created {
			t.Errorf("attempt %d: state %v after a failed Start, want CREATED", attempt, s.State())
		}
		if !canLock(t, dir, s.cfg.ApplicationID) {
			t.Fatalf("attempt %d: a failed Start kept the state directory locked", attempt)
		}
	}
	if err := s.Close(context.Background()); err != nil {
		t.Errorf("Close after failed Starts: %v", err)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Errorf("second Close after failed Starts: %v", err)
	}
}

// The state directory held by another instance fails Start with
// state.ErrLocked; once it is free, Start on the same instance succeeds, as
// it does after a missing source topic is created.
func TestStartRetriedAfterLockedDirectoryAndMissingTopic(t *testing.T) {
	c := fakeCluster(t)
	bootstrap := c.ListenAddrs()[0]
	dir := t.TempDir()
	s := newInstance(t, bootstrap, dir)
	other, err := state.NewDirectory(dir, s.cfg.ApplicationID)
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Lock(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = s.Start(ctx)
	if !errors.Is(err, state.ErrLocked) || !strings.Contains(err.Error(), "Start may be called again") {
		t.Fatalf("Start on a locked state directory: %v, want ErrLocked saying Start may be retried", err)
	}
	other.Unlock()

	err = s.Start(ctx)
	if err == nil || !strings.Contains(err.Error(), "source topic in is missing") || !strings.Contains(err.Error(), "Start may be called again") {
		t.Fatalf("Start without the source topic: %v", err)
	}
	if !canLock(t, dir, s.cfg.ApplicationID) {
		t.Fatal("a failed Start kept the state directory locked")
	}
	createTopics(t, bootstrap, "in", "out")

	if err := s.Start(ctx); err != nil {
		t.Fatalf("Start after the causes were fixed: %v", err)
	}
	if err := s.Start(ctx); !errors.Is(err, ErrNotCreated) {
		t.Errorf("Start of a running instance: %v, want ErrNotCreated", err)
	}
	if canLock(t, dir, s.cfg.ApplicationID) {
		t.Error("a running instance does not hold its state directory")
	}
	// Close has a deadline of its own, not what the Starts left of ctx.
	cctx, ccancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer ccancel()
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.Close(cctx)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("concurrent Close %d: %v", i, err)
		}
	}
	if err := s.Close(cctx); err != nil {
		t.Errorf("Close after Close: %v", err)
	}
	if s.State() != NotRunning {
		t.Errorf("state %v after Close, want NOT_RUNNING", s.State())
	}
	if !canLock(t, dir, s.cfg.ApplicationID) {
		t.Error("the state directory is still locked after Close")
	}
	if err := s.Start(ctx); !errors.Is(err, ErrClosed) {
		t.Errorf("Start after Close: %v, want ErrClosed", err)
	}
}

// openCounter counts the tasks opened by the stream threads.
type openCounter struct {
	NoHooks
	opened atomic.Int64
}

func (*openCounter) OnPoll(int, int, time.Duration)                     {}
func (*openCounter) OnProcess(int, kstreams.TaskID, int, time.Duration) {}
func (*openCounter) OnRecordsLag(int, string, int32, int64)             {}
func (*openCounter) OnRebalance(int)                                    {}
func (c *openCounter) OnTaskOpened(int, kstreams.TaskID)                { c.opened.Add(1) }

// An assignment can reach the main consumer after the thread's last poll,
// while Close is under way. The thread is leaving the group then: it opens
// no task for it (that would wait for committed offsets the client never
// fetches once the consumer closes), it hands the assignment back while the
// group can still answer (an assign call the group never answers blocks for
// good), and Close returns with the state directory released.
func TestCloseWhileTheAssignmentArrivesTakesNoneOfIt(t *testing.T) {
	c := fakeCluster(t, "in", "out")
	bootstrap := c.ListenAddrs()[0]
	var syncs atomic.Int64
	release := make(chan struct{})
	c.ControlKey(int16(kmsg.SyncGroup), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		if syncs.Add(1) == 1 {
			// The first assignment is held until the thread closes its
			// clients, then answered as usual.
			c.SleepControl(func() { <-release })
		}
		return nil, nil, false
	})
	dir := t.TempDir()
	hooks := &openCounter{}
	s := newInstance(t, bootstrap, dir, WithHooks(hooks))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	waitFor(t, 30*time.Second, "a SyncGroup request", func() bool { return syncs.Load() > 0 })

	cctx, ccancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer ccancel()
	closeErr := make(chan error, 1)
	go func() { closeErr <- s.Close(cctx) }()
	// The assignment is released once the thread closes its clients (or,
	// should it get through them without it, has stopped).
	waitFor(t, 10*time.Second, "the thread closing its clients", func() bool {
		a := s.threads[0].cur.Load()
		return (a != nil && a.what == "closing its clients") || s.threads[0].stopped.Load()
	})
	close(release)
	if err := <-closeErr; err != nil {
		t.Errorf("Close: %v", err)
	}
	if n := hooks.opened.Load(); n > 0 {
		t.Errorf("the thread opened %d tasks while leaving the group", n)
	}
	if st := s.State(); st != NotRunning {
		t.Errorf("state %v after Close, want NOT_RUNNING (err %v)", st, s.Err())
	}
	if !canLock(t, dir, s.cfg.ApplicationID) {
		t.Error("the state directory is still locked after Close")
	}
}

// Close while Start waits for an unreachable broker stops the Start at once;
// the instance then cannot start again, and both say so.
func TestCloseDuringStartStopsItAndForbidsARestart(t *testing.T) {
	dir := t.TempDir()
	s := newInstance(t, nowhere, dir)
	startErr := make(chan error, 1)
	go func() { startErr <- s.Start(context.Background()) }()
	time.Sleep(300 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	begin := time.Now()
	if err := s.Close(ctx); err != nil {
		t.Fatalf("Close during Start: %v", err)
	}
	if took := time.Since(begin); took > 2500*time.Millisecond {
		t.Errorf("Close during Start took %v, want about one metadata call (1s)", took)
	}
	err := <-startErr
	if !errors.Is(err, errClosedDuringStart) || !strings.Contains(err.Error(), "cannot start again") {
		t.Errorf("Start interrupted by Close: %v", err)
	}
	if err := s.Start(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("Start after Close: %v, want ErrClosed", err)
	}
	if !canLock(t, dir, s.cfg.ApplicationID) {
		t.Error("the interrupted Start kept the state directory locked")
	}
}

// commitCounter counts successful commits that carried records.
type commitCounter struct {
	NoHooks
	ok atomic.Int64
}

func (c *commitCounter) OnCommit(_ int, _ txn.CommitStats, err error) {
	if err == nil {
		c.ok.Add(1)
	}
}

// When the broker stops answering EndTxn, the thread is stuck in a commit
// that only the shutdown deadline ends: Close returns by its deadline with
// an error naming the wait, then the thread stops on its own.
func TestCloseReturnsByDeadlineNamingTheStuckCommit(t *testing.T) {
	c := fakeCluster(t, "in", "out")
	bootstrap := c.ListenAddrs()[0]
	hooks := &commitCounter{}
	s := newInstance(t, bootstrap, t.TempDir(), WithHooks(hooks))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	produce(t, bootstrap, "in", "a")
	waitFor(t, 30*time.Second, "a commit", func() bool { return hooks.ok.Load() > 0 && s.State() == Running })

	var blackholed atomic.Int64
	c.ControlKey(int16(kmsg.EndTxn), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		blackholed.Add(1)
		return nil, nil, true // never answered
	})
	produce(t, bootstrap, "in", "b")
	waitFor(t, 30*time.Second, "an unanswered EndTxn", func() bool { return blackholed.Load() > 0 })

	cctx, ccancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer ccancel()
	begin := time.Now()
	err := s.Close(cctx)
	took := time.Since(begin)
	if took > 3*time.Second {
		t.Errorf("Close returned after %v, want about its 2s deadline", took)
	}
	if err == nil {
		t.Fatal("Close succeeded although the commit never finished")
	}
	t.Logf("Close: %v", err)
	for _, want := range []string{"close did not finish", "stream thread 1: committing"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Close error %q lacks %q", err, want)
		}
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Close error %v does not say the deadline passed", err)
	}
	select {
	case <-s.Done():
	case <-time.After(20 * time.Second):
		t.Fatalf("the thread did not stop after the deadline; it was %s", threadActivities(s.threads, time.Now()))
	}
	if st := s.State(); st != NotRunning {
		t.Errorf("state %v after the threads stopped, want NOT_RUNNING (err %v)", st, s.Err())
	}
	if err := s.Close(context.Background()); err != nil {
		t.Errorf("Close after the threads stopped: %v", err)
	}
}

// When a task opens in the rebalance callback, its store's changelog
// watermarks are read from the broker; if the broker does not answer, Close
// interrupts the wait instead of waiting out its 30s bound, and the thread
// stops cleanly.
func TestCloseInterruptsWatermarkWaitInRebalanceCallback(t *testing.T) {
	c := fakeCluster(t, "in", "out")
	bootstrap := c.ListenAddrs()[0]
	var asked atomic.Int64
	c.ControlKey(int16(kmsg.ListOffsets), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		asked.Add(1)
		return nil, nil, true // never answered
	})
	b := kstreams.NewStreamsBuilder()
	kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})).
		GroupByKey().Count().ToStream().To("out", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(topo, lifecycleConfig(t, bootstrap, t.TempDir()), WithLogger(quiet))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	waitFor(t, 30*time.Second, "a watermark request", func() bool {
		a := s.threads[0].cur.Load()
		return asked.Load() > 0 && a != nil && strings.Contains(a.what, "watermarks of changelog")
	})
	cctx, ccancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer ccancel()
	begin := time.Now()
	if err := s.Close(cctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if took := time.Since(begin); took > 5*time.Second {
		t.Errorf("Close took %v; the watermark wait should end within a second of it", took)
	}
	if st := s.State(); st != NotRunning {
		t.Errorf("state %v, want NOT_RUNNING (err %v)", st, s.Err())
	}
}

// Each blocking look-up of the runtime ends promptly when its context is
// cancelled, though the broker it waits for never answers.
func TestWaitsOnAnUnreachableBrokerHonourCancellation(t *testing.T) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(nowhere))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	s := &KafkaStreams{cfg: &compat.Config{ApplicationID: "g", ProcessingGuarantee: compat.ExactlyOnceV2}}
	th := &streamThread{s: s, consumer: cl, restorer: cl, log: quiet}
	waits := map[string]func(ctx context.Context) error{
		"sink metadata": func(ctx context.Context) error {
			_, err := topicPartitions(ctx, cl, "t", "sink", time.Minute)
			return err
		},
		"watermarks": func(ctx context.Context) error {
			th.ctx = ctx
			_, _, err := th.changelogWatermarks(state.TopicPartition{Topic: "t", Partition: 0})
			return err
		},
		"committed offsets": func(ctx context.Context) error {
			th.ctx = ctx
			_, err := th.committedOffsets([]tpKey{{"t", 0}})
			return err
		},
	}
	for name, wait := range waits {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			time.AfterFunc(300*time.Millisecond, func() { cancel(errShuttingDown) })
			begin := time.Now()
			err := wait(ctx)
			if took := time.Since(begin); took > 2*time.Second {
				t.Errorf("returned after %v; cancelled at 300ms", took)
			}
			if !errors.Is(err, errShuttingDown) || !interrupted(err) {
				t.Errorf("error %v does not carry the shutdown", err)
			}
		})
	}
}

func createTopics(t *testing.T, bootstrap string, topics ...string) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(bootstrap))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := kadm.NewClient(cl).CreateTopics(ctx, 1, 1, nil, topics...)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Err != nil {
			t.Fatalf("creating %s: %v", r.Topic, r.Err)
		}
	}
}

func produce(t *testing.T, bootstrap, topic string, values ...string) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(bootstrap), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var recs []*kgo.Record
	for _, v := range values {
		recs = append(recs, &kgo.Record{Topic: topic, Partition: 0, Key: []byte("k"), Value: []byte(v)})
	}
	if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
}

func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within %v", what, d)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Without a context deadline, a look-up still ends at its own bound, saying
// so.
func TestWaitEndsAtItsBound(t *testing.T) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(nowhere))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	begin := time.Now()
	_, err = topicPartitions(context.Background(), cl, "t", "sink", 1500*time.Millisecond)
	if took := time.Since(begin); took < 1400*time.Millisecond || took > 3*time.Second {
		t.Errorf("returned after %v, want about the 1.5s bound", took)
	}
	if err == nil || !strings.Contains(err.Error(), "metadata of sink topic t") || !errors.Is(err, context.DeadlineExceeded) || interrupted(err) {
		t.Errorf("error %v should name the look-up and its bound, and not be a shutdown", err)
	}
}
