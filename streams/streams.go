package streams

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/kgolog"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/txn"
)

// State is the lifecycle state of a KafkaStreams instance, named as Kafka
// Streams names its states.
type State int

// The states, in Kafka Streams' words.
const (
	Created State = iota
	Rebalancing
	Running
	PendingShutdown
	NotRunning
	PendingError
	Error
)

func (s State) String() string {
	switch s {
	case Created:
		return "CREATED"
	case Rebalancing:
		return "REBALANCING"
	case Running:
		return "RUNNING"
	case PendingShutdown:
		return "PENDING_SHUTDOWN"
	case NotRunning:
		return "NOT_RUNNING"
	case PendingError:
		return "PENDING_ERROR"
	case Error:
		return "ERROR"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// Errors of the runtime.
var (
	// ErrNotCreated: Start on an instance that was already started (or is
	// starting).
	ErrNotCreated = errors.New("streams: instance already started")
	// ErrClosed: Start on an instance that was closed. A closed instance
	// cannot start again: create a new one with New.
	ErrClosed = errors.New("streams: instance closed; create a new one to start again")
)

// Hooks receive what the runtime does, for metrics and tests. Every method
// is called from stream threads and must be cheap and safe for concurrent
// use. Embed NoHooks to implement only some.
type Hooks interface {
	// OnCommit reports a finished commit of a stream thread.
	OnCommit(thread int, stats txn.CommitStats, err error)
	// OnRestoreStart reports a store about to restore its changelog from
	// startOffset to endOffset (exclusive, an upper bound); full is true when
	// the store had no usable offset and restores from the beginning.
	OnRestoreStart(store string, tp state.TopicPartition, startOffset, endOffset int64, full bool)
	// OnRestoreBatch reports n changelog records applied to a store.
	OnRestoreBatch(store string, tp state.TopicPartition, n int)
	// OnRestoreEnd reports a store's restore done, with the records applied.
	OnRestoreEnd(store string, tp state.TopicPartition, total int64)
	// OnDroppedRecord reports a record a processor or an exception handler
	// skipped.
	OnDroppedRecord(task kstreams.TaskID, processor, reason string)
	// OnStoreUncommittedBytes reports a store's uncommitted bytes after a
	// thread's processing round.
	OnStoreUncommittedBytes(task kstreams.TaskID, store string, n int64)
	// OnThreadUncommittedBytes reports a thread's total uncommitted bytes.
	OnThreadUncommittedBytes(thread int, n int64)
}

// ActivityHooks is an optional extension of Hooks: the runtime calls these
// when its Hooks also implement them (checked once, by type assertion).
type ActivityHooks interface {
	// OnPoll reports one poll round of a thread's main consumer that
	// returned records, and the time it took.
	OnPoll(thread int, records int, took time.Duration)
	// OnProcess reports the records a task processed in one round and the
	// time they took.
	OnProcess(thread int, task kstreams.TaskID, records int, took time.Duration)
	// OnRecordsLag reports an input partition's lag (end offset minus
	// position) as the thread's consumer last saw it, at each commit.
	OnRecordsLag(thread int, topic string, partition int32, lag int64)
	// OnRebalance reports a finished assignment of a thread's consumer.
	OnRebalance(thread int)
	// OnTaskOpened reports a task opened by a thread, before its stores
	// restore.
	OnTaskOpened(thread int, task kstreams.TaskID)
}

// NoHooks implements Hooks with methods that do nothing.
type NoHooks struct{}

func (NoHooks) OnCommit(int, txn.CommitStats, error)                            {}
func (NoHooks) OnRestoreStart(string, state.TopicPartition, int64, int64, bool) {}
func (NoHooks) OnRestoreBatch(string, state.TopicPartition, int)                {}
func (NoHooks) OnRestoreEnd(string, state.TopicPartition, int64)                {}
func (NoHooks) OnDroppedRecord(kstreams.TaskID, string, string)                 {}
func (NoHooks) OnStoreUncommittedBytes(kstreams.TaskID, string, int64)          {}
func (NoHooks) OnThreadUncommittedBytes(int, int64)                             {}

// Option configures a KafkaStreams instance.
type Option func(*options)

type options struct {
	logger     *slog.Logger
	hooks      Hooks
	capture    *Capture
	production func() kstreams.ProductionExceptionHandler
	handlers   kstreams.ProductionHandlers
	// standbyBatch is the tests' hook before each standby batch.
	standbyBatch func(task kstreams.TaskID, store string) error
	snapshots    func(AssignmentSnapshot)
	// now is the tests' clock for the state directory's dates.
	now func() time.Time
}

// Capture keeps the records of some output topics in memory instead of
// writing them: each record a sink sends to a topic Topics selects is
// computed and partitioned as it would be written (the topic must exist:
// its partition count decides the partition), held with the thread's
// epoch, and handed to Deliver once that epoch has committed. An aborted
// epoch's records are dropped, never delivered, so under exactly_once_v2
// Deliver sees what a read_committed consumer of the topic would have
// read. Deliver is called from the stream threads, one batch at a time per
// thread, in the order the thread sent them; it must not block for long.
// The sidecar's shadow mode compares a topology's outputs this way without
// shadow topics.
type Capture struct {
	Topics  func(topic string) bool
	Deliver func([]CapturedRecord)
}

// CapturedRecord is an output record a Capture kept.
type CapturedRecord struct {
	Topic     string
	Partition int32
	Key       []byte // nil: a null key
	Value     []byte // nil: a tombstone
	Timestamp time.Time
	Headers   []kstreams.Header
}

// WithCapture keeps the records of the topics c selects in memory and
// hands them to c.Deliver as their epochs commit (see Capture).
func WithCapture(c Capture) Option { return func(o *options) { o.capture = &c } }

// WithLogger sets the logger (default slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// WithHooks sets the hooks that receive commits, restores and drops.
func WithHooks(h Hooks) Option { return func(o *options) { o.hooks = h } }

// WithProductionExceptionHandler gives each stream thread a production
// exception handler from newHandler, in place of the class
// production.exception.handler names (Kafka's
// StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG set in code).
func WithProductionExceptionHandler(newHandler func() kstreams.ProductionExceptionHandler) Option {
	return func(o *options) { o.production = newHandler }
}

// WithProductionHandlers gives the Go handlers of the Java classes
// production.exception.handler may name: the instance's stream threads
// each get one of the class the configuration names. Without it only
// Kafka's default class has a handler. The configuration should have been
// loaded knowing the same classes (compat.WithProductionHandlerClasses).
func WithProductionHandlers(h kstreams.ProductionHandlers) Option {
	return func(o *options) { o.handlers = maps.Clone(h) }
}

// KafkaStreams runs a Topology against Kafka with the semantics of Kafka
// Streams 4.4: num.stream.threads stream threads in one consumer group,
// tasks per sub-topology and partition, changelogged transactional stores,
// exactly_once_v2 or at_least_once.
type KafkaStreams struct {
	// topo is the topology as it runs: Start sets the topics of its
	// pattern sources (MatchPatterns) in a copy of declared before any
	// thread starts.
	topo, declared *kstreams.Topology
	// internalCounts are the partition counts of the internal topics as
	// Start created (or found) them, set before any thread starts: a
	// group leader counts a repartition topic's partitions from them when
	// its client's metadata does not show the topic yet.
	internalCounts map[string]int32
	// sourceCounts are the partition counts of the external source
	// topics as Start read them, set before any thread starts: with
	// internalCounts, the partition count a key's store partition is
	// computed over (metadata.go).
	sourceCounts map[string]int32
	// taskCounts are the sub-topologies' task counts at Start, which the
	// internal topics were created for.
	taskCounts map[int]int
	// shutdownAsked says the instance asks the group to shut every
	// instance down (SHUTDOWN_APPLICATION); shutdownAnswered closes, once,
	// when the group hands that request out (see shutdownapp.go).
	// member is what the instance's main consumers say about it in the
	// group, set at Start once the process id is known.
	member *groupMember

	shutdownAsked    atomic.Bool
	shutdownOnce     sync.Once
	shutdownAnswered chan struct{}
	cfg              *compat.Config
	// appConfigs is what the processors' AppConfigs gives, read once.
	appConfigs map[string]string
	log        *slog.Logger
	hks        Hooks
	act        ActivityHooks // nil unless hks implements it
	sbh        StandbyHooks  // nil unless hks implements it
	// standbyBatch, set by tests only, runs before each standby batch
	// reaches its store; an error stops the thread there.
	standbyBatch func(task kstreams.TaskID, store string) error
	// snapshots, when set, is handed every placement the instance
	// computes as its group's leader (WithAssignmentSnapshots).
	snapshots func(AssignmentSnapshot)
	// now is the clock the state directory's task directories are dated
	// and aged by (cleaner.go): time.Now, or a test's.
	now func() time.Time
	// leaveOnClose is set by CloseWith before the threads stop: their
	// static members leave the group as they close.
	leaveOnClose atomic.Bool
	// fence rate-limits the fencing of abandoned transactions (fence.go).
	fence fencer
	// assigned has a value when a thread got an assignment the rebalance
	// watch has not seen yet: it fences after each (fence.go).
	assigned chan struct{}
	// capture is nil unless WithCapture was given.
	capture *Capture
	// newProduction makes each stream thread's production exception
	// handler, configured with appConfigs.
	newProduction func() kstreams.ProductionExceptionHandler
	// serdes are the Schema Registry default serdes, built on first use
	// (defaultSerde) and shared by the instance's tasks.
	serdes struct {
		sync.Mutex
		key, value serde.Untyped
	}

	dir       *state.Directory
	processID string
	health    *kgolog.Health // what every client of the instance saw of the brokers
	// wg counts the instance's goroutines (docs/DESIGN.md, "Goroutines
	// and their owners"): the stream threads, the global thread, the
	// consumer asking for the application's shutdown, a fail started from
	// a rebalance, and the instance's own place until its run context
	// ends. An Add comes from start before anything waits, from a
	// goroutine wg counts (or a callback of its clients), or from
	// AddStreamThread once it has checked that the run context, and with it
	// the instance's place, holds.
	wg       sync.WaitGroup
	done     chan struct{}
	doneOnce sync.Once
	threads  []*streamThread
	// global is the global thread; nil without global stores.
	global *globalThread

	// cancel ends the threads' run context (cause errShuttingDown): Close,
	// or a fatal error. Waits on the processing and rebalance paths honour
	// it.
	cancel context.CancelCauseFunc
	// abortCtx ends (cause errShutdownDeadline) when a context given to
	// Close ends: every wait gives up, the final commit's included.
	abortCtx context.Context
	abort    context.CancelCauseFunc

	// paused is set by Pause and cleared by Resume (pause.go).
	paused atomic.Bool

	mu struct {
		sync.Mutex
		state    State
		listener func(newState, oldState State)
		err      error
		threadUp map[int]bool // threads that finished restoring
		// runCtx is the threads' run context, for threads added later.
		runCtx context.Context
		stores map[storeKey]*taskStore
		// standbys are the standby tasks' stores (standby.go).
		standbys map[storeKey]*taskStore
		started  bool          // threads were started (Start succeeded)
		closed   bool          // Close was called
		starting chan struct{} // non-nil while Start runs; closed when it returns
		// stopStart cancels a running Start (Close during Start).
		stopStart context.CancelCauseFunc
		// onThreadError is the uncaught-exception handler; nil: shut down.
		onThreadError func(error) ExceptionResponse
		// globals are the global stores, for interactive queries.
		globals map[string]*globalState
	}
}

// New prepares topo to run with cfg. Nothing connects until Start. As
// Kafka Streams builds the topology with the application's config, New
// applies topology.optimization, and refuses a topology that left internal
// resources to generated names when ensure.explicit.internal.resource.naming
// is true (a *kstreams.UnnamedResourcesError inside its error), logging them
// otherwise.
func New(topo *kstreams.Topology, cfg *compat.Config, opts ...Option) (*KafkaStreams, error) {
	o := options{logger: slog.Default(), hooks: NoHooks{}}
	for _, opt := range opts {
		opt(&o)
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	topo, err := topo.Optimize(cfg.Optimizations)
	if err != nil {
		return nil, err
	}
	if err := checkNaming(topo, cfg, o.logger); err != nil {
		return nil, err
	}
	s := &KafkaStreams{topo: topo, declared: topo, cfg: cfg, appConfigs: cfg.AppConfigs(), log: o.logger.With("application.id", cfg.ApplicationID), hks: o.hooks, capture: o.capture, done: make(chan struct{}),
		health: kgolog.NewHealth(), shutdownAnswered: make(chan struct{}), assigned: make(chan struct{}, 1)}
	s.act, _ = o.hooks.(ActivityHooks)
	s.sbh, _ = o.hooks.(StandbyHooks)
	s.standbyBatch = o.standbyBatch
	s.snapshots = o.snapshots
	s.now = o.now
	if s.now == nil {
		s.now = time.Now
	}
	s.newProduction = o.production
	if s.newProduction == nil {
		if err := o.handlers.Validate(); err != nil {
			return nil, fmt.Errorf("streams: %w", err)
		}
		class := cmp.Or(cfg.ProductionExceptionHandler, kstreams.DefaultProductionExceptionHandlerClass)
		if _, ok := o.handlers.New(class); !ok {
			return nil, fmt.Errorf("streams: production.exception.handler = %s: no Go handler is bound to this class (streams.WithProductionHandlers)", class)
		}
		s.newProduction = func() kstreams.ProductionExceptionHandler {
			h, _ := o.handlers.New(class)
			return h
		}
	}
	s.mu.threadUp = map[int]bool{}
	s.mu.stores = map[storeKey]*taskStore{}
	s.mu.standbys = map[storeKey]*taskStore{}
	if r := configuredResponse(cfg.UncaughtExceptionResponse); r != ShutdownClient {
		s.mu.onThreadError = func(error) ExceptionResponse { return r }
	}
	if cfg.AutoOffsetReset() == "latest" {
		for store, topic := range topo.ReadOnlyStoreTopics() {
			s.log.Warn("auto.offset.reset=latest: a read-only store's topic is read from its end when the group has no offset "+
				"for it, where Kafka Streams reads it from its earliest offset; set auto.offset.reset=earliest for the same start",
				"store", store, "topic", topic)
		}
	}
	return s, nil
}

// openStateDir returns the application's state directory, created if
// needed, with the modes Kafka Streams 4.4 gives it and state.dir
// (allow.os.group.write.access). As in Kafka Streams, modes it cannot set
// are logged, and the instance goes on.
func (s *KafkaStreams) openStateDir() (*state.Directory, error) {
	dir, err := state.NewDirectory(s.cfg.StateDir, s.cfg.ApplicationID)
	if err != nil {
		return nil, err
	}
	if err := dir.SetPermissions(s.cfg.AllowOSGroupWriteAccess); err != nil {
		s.log.Error("cannot set the modes of the state directory; it keeps the modes it has, as under Kafka Streams",
			"err", err, compat.AllowOSGroupWriteAccessConfig, s.cfg.AllowOSGroupWriteAccess)
	}
	return dir, nil
}

// checkNaming applies ensure.explicit.internal.resource.naming (KIP-1111)
// as Kafka Streams 4.4 applies it when it builds the topology: true refuses
// a topology whose internal resources took generated names, with Kafka's
// list of them; false logs the list at WARN in Kafka's words.
func checkNaming(topo *kstreams.Topology, cfg *compat.Config, log *slog.Logger) error {
	u := topo.UnnamedResources()
	if u.Empty() {
		return nil
	}
	if !cfg.EnsureExplicitInternalResourceNaming {
		log.Warn(u.Warning(), "application.id", cfg.ApplicationID)
		return nil
	}
	key := compat.EnsureExplicitInternalResourceNamingConfig
	return fmt.Errorf("streams: %s is true and the topology leaves internal resources to generated names, which change when "+
		"an operator is added upstream; %s, or set %s=false to run with the generated names (Kafka Streams then logs them): %w",
		key, u.Hint(), key, u.Err())
}

// clientObservers are the options that connect a Kafka client of the
// instance to its logger (tagged with role) and to its broker health.
func (s *KafkaStreams) clientObservers(log *slog.Logger, role string) []kgo.Opt {
	return []kgo.Opt{kgo.WithLogger(kgolog.NewWithHealth(log, role, s.health)), kgo.WithHooks(s.health)}
}

// BrokerFailure describes the connection failure to a Kafka broker that the
// instance's clients see now (refused, unresolvable, TLS or SASL failure),
// with what to check; "" while the brokers answer. It clears by itself when
// a broker answers again.
func (s *KafkaStreams) BrokerFailure() string {
	if f, ok := s.health.Current(); ok {
		return f.String()
	}
	return ""
}

// SetStateListener sets the function called on every state change, from
// the goroutine that caused it.
func (s *KafkaStreams) SetStateListener(fn func(newState, oldState State)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.listener = fn
}

// State returns the current state.
func (s *KafkaStreams) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mu.state
}

// Err returns the error that moved the instance to ERROR, if any.
func (s *KafkaStreams) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mu.err
}

// Done is closed when every stream thread has stopped, or when Close ends
// an instance that never started.
func (s *KafkaStreams) Done() <-chan struct{} { return s.done }

// ProcessID returns the instance's process id, persisted in the state
// directory (valid after Start).
func (s *KafkaStreams) ProcessID() string { return s.processID }

func (s *KafkaStreams) setState(next State) {
	s.mu.Lock()
	prev := s.mu.state
	if prev == next || prev == NotRunning || prev == Error {
		s.mu.Unlock()
		return
	}
	s.mu.state = next
	l := s.mu.listener
	s.mu.Unlock()
	s.log.Info("state transition", "from", prev.String(), "to", next.String())
	if l != nil {
		l(next, prev)
	}
}

// threadReady records whether a thread has all its tasks running.
func (s *KafkaStreams) threadReady(idx int, ready bool) {
	s.mu.Lock()
	s.mu.threadUp[idx] = ready
	s.mu.Unlock()
	s.updateReadiness()
}

// updateReadiness sets the state from the threads' readiness: RUNNING when
// every thread has its tasks running, else REBALANCING.
func (s *KafkaStreams) updateReadiness() {
	s.mu.Lock()
	all := len(s.mu.threadUp) == len(s.threads)
	for _, up := range s.mu.threadUp {
		all = all && up
	}
	cur := s.mu.state
	s.mu.Unlock()
	if cur != Running && cur != Rebalancing {
		return
	}
	if all {
		s.setState(Running)
	} else {
		s.setState(Rebalancing)
	}
}

// Start locks the state directory, creates the internal topics and starts
// the stream threads. It returns once they run; processing goes on until
// Close or a fatal error (see Done and Err). With
// state.cleanup.dir.max.age.ms set, it first deletes the task directories
// older than that; the state directory's cleaner then deletes, every
// state.cleanup.delay.ms, those of the tasks that moved away (cleaner.go).
//
// A Start that fails (the state directory locked by another instance, the
// broker not reachable before ctx ends, a source topic missing) releases
// everything it took and leaves the instance CREATED: Start may be called
// again once the cause is fixed. Only a Start that Close interrupted cannot
// be retried; its error says so, and later calls return ErrClosed.
func (s *KafkaStreams) Start(ctx context.Context) error {
	s.mu.Lock()
	switch {
	case s.mu.closed:
		s.mu.Unlock()
		return ErrClosed
	case s.mu.starting != nil || s.mu.state != Created:
		s.mu.Unlock()
		return ErrNotCreated
	}
	sctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	starting := make(chan struct{})
	s.mu.starting, s.mu.stopStart = starting, stop
	s.mu.Unlock()

	err := s.start(sctx)

	s.mu.Lock()
	s.mu.starting, s.mu.stopStart = nil, nil
	closed := s.mu.closed
	s.mu.Unlock()
	close(starting)
	switch {
	case err == nil:
		return nil
	case closed || errors.Is(context.Cause(sctx), errClosedDuringStart):
		return fmt.Errorf("streams: start: %w: Close was called, so this instance cannot start again: %w", errClosedDuringStart, err)
	default:
		return fmt.Errorf("streams: start failed; nothing was left running, so Start may be called again once the cause is fixed: %w", err)
	}
}

// start is Start's work; on an error it has released what it took.
func (s *KafkaStreams) start(ctx context.Context) (err error) {
	dir, err := s.openStateDir()
	if err != nil {
		return err
	}
	if err := dir.Lock(); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			dir.Unlock()
		}
	}()
	pid, err := dir.ProcessID()
	if err != nil {
		return err
	}
	s.dir, s.processID = dir, pid
	if err := s.purgeOutdatedTaskDirs(); err != nil {
		return err
	}
	if s.member, err = newGroupMember(s); err != nil {
		return err
	}
	s.scanTaskDirs()

	if s.taskCounts, err = s.prepareTopics(ctx); err != nil {
		return err
	}
	// The global stores are restored before any stream thread starts, as
	// Kafka Streams' start waits for its global thread (see global.go).
	if len(s.topo.GlobalStores()) > 0 {
		var g *globalThread
		if g, err = newGlobalThread(ctx, s); err != nil {
			return err
		}
		defer func() {
			if err != nil {
				g.close(false)
				s.global = nil
			}
		}()
		s.global = g
		s.registerGlobals(g)
	}

	var threads []*streamThread
	for i := 1; i <= s.cfg.NumStreamThreads; i++ {
		t, err := newStreamThread(s, i)
		if err != nil {
			for _, t := range threads {
				t.closeClients(ctx)
			}
			return err
		}
		threads = append(threads, t)
	}
	runCtx, cancel := context.WithCancelCause(context.Background())
	abortCtx, abort := context.WithCancelCause(context.Background())
	s.cancel, s.abortCtx, s.abort = cancel, abortCtx, abort
	s.mu.Lock()
	s.threads = threads
	s.mu.Unlock()
	// The last check before the threads start, under the lock Close takes
	// to interrupt a Start: either Close comes first and Start fails, or
	// the instance counts as started and Close stops it like any other.
	s.mu.Lock()
	if ctx.Err() != nil {
		s.mu.Unlock()
		cancel(nil)
		abort(nil)
		s.threads = nil
		for _, t := range threads {
			t.closeClients(ctx)
		}
		return context.Cause(ctx)
	}
	s.mu.started = true
	s.mu.runCtx = runCtx
	s.mu.Unlock()
	// The instance holds a place in the wait group of its threads until it
	// stops: removing every thread (RemoveStreamThread) leaves it running.
	s.wg.Add(1)
	go func() {
		<-runCtx.Done()
		s.wg.Done()
	}()
	s.setState(Rebalancing)
	if g := s.global; g != nil {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			if err := g.run(runCtx); err != nil {
				s.fail(fmt.Errorf("streams: global thread: %w", err))
			}
		}()
	}
	for _, t := range threads {
		s.runThread(runCtx, t)
	}
	if s.cfg.GroupProtocol != compat.GroupProtocolStreams {
		// It describes a classic group, which a streams group is not.
		s.wg.Go(func() { s.watchRebalances(runCtx) })
	}
	s.wg.Go(func() { s.runCleaner(runCtx) })
	// The instance's last goroutine finishes it once every other one has
	// stopped; done is the last thing it does, and Close waits for done.
	go func() {
		s.wg.Wait()
		s.dir.Unlock()
		s.mu.Lock()
		failed := s.mu.err != nil
		s.mu.Unlock()
		if failed {
			s.setState(Error)
		} else {
			s.setState(NotRunning)
		}
		abort(nil)
		s.doneOnce.Do(func() { close(s.done) })
	}()
	return nil
}

// fail records a fatal error and stops every thread (Kafka Streams'
// SHUTDOWN_CLIENT response).
func (s *KafkaStreams) fail(err error) {
	s.mu.Lock()
	if s.mu.err == nil {
		s.mu.err = err
	}
	s.mu.Unlock()
	s.log.Error("fatal error; shutting down", "err", err)
	s.setState(PendingError)
	s.stopRun()
}

// stopRun ends the threads' run context, under the lock: AddStreamThread
// counts a new thread in wg under it only while the context has not ended.
func (s *KafkaStreams) stopRun() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cancel(errShuttingDown)
}

// Close commits what was processed, closes every task and store cleanly and
// stops the threads, waiting until they have stopped or ctx ends. A restart
// after a clean close replays no changelog record.
//
// When ctx ends first, every wait of the threads (the final commit's
// included) gives up, and Close returns an error that says what each thread
// was still doing; the threads then stop on their own (see Done), closing
// their tasks without committing. Close is safe to call more than once and
// concurrently; on an instance that never started (or whose Start failed)
// it releases nothing, returns nil and leaves the instance NOT_RUNNING.
func (s *KafkaStreams) Close(ctx context.Context) error {
	return s.CloseWith(ctx, CloseOptions{LeaveGroup: s.cfg.LeaveGroupOnClose})
}

// CloseOptions are Kafka Streams' CloseOptions.
type CloseOptions struct {
	// LeaveGroup makes the instance's members leave the application's
	// group as they close, so that their tasks move at once (Kafka
	// Streams' GroupMembershipOperation.LEAVE_GROUP): for an instance
	// stopped for good, as in a migration or a scale-down. Without it a
	// static member (stoatflow.consumer.static-membership, the default)
	// stays in the group until session.timeout.ms passes, so that a
	// restart takes its tasks back without a rebalance
	// (REMAIN_IN_GROUP). stoatflow.shutdown.leave-group sets it for Close.
	LeaveGroup bool
}

// CloseWith is Close with options.
func (s *KafkaStreams) CloseWith(ctx context.Context, o CloseOptions) error {
	s.leaveOnClose.Store(o.LeaveGroup)
	s.mu.Lock()
	s.mu.closed = true
	if s.mu.starting != nil {
		// Interrupt Start and wait for it: it either fails, releasing what
		// it took, or has just started the threads, which stop below.
		starting := s.mu.starting
		s.mu.stopStart(errClosedDuringStart)
		s.mu.Unlock()
		select {
		case <-starting:
		case <-ctx.Done():
			return fmt.Errorf("streams: close did not finish: Start was still running: %w", context.Cause(ctx))
		}
		s.mu.Lock()
	}
	started := s.mu.started
	s.mu.Unlock()
	if !started {
		s.setState(NotRunning)
		s.doneOnce.Do(func() { close(s.done) })
		return nil
	}
	s.setState(PendingShutdown)
	s.stopRun()
	select {
	case <-s.done:
		return s.Err()
	case <-ctx.Done():
	}
	// Say what the threads were doing when the deadline passed, before
	// their waits give up.
	acts := threadActivities(s.liveThreads(), time.Now())
	s.abort(fmt.Errorf("%w: %w", errShutdownDeadline, context.Cause(ctx)))
	select {
	case <-s.done: // finished just as ctx ended
		return s.Err()
	default:
	}
	return fmt.Errorf("streams: close did not finish: %w; still waiting: %s (the threads stop on their own, "+
		"closing their tasks without committing: a restart replays their changelogs)",
		context.Cause(ctx), acts)
}

// prepareTopics creates the internal topics with their partition counts
// and configs, and returns the task count of every sub-topology.
func (s *KafkaStreams) prepareTopics(ctx context.Context) (map[int]int, error) {
	aopts, err := s.cfg.AdminOptions(s.processID)
	if err != nil {
		return nil, fmt.Errorf("streams: admin client: %w", err)
	}
	aopts = append(aopts, s.clientObservers(s.log, "admin")...)
	cl, err := kgo.NewClient(aopts...)
	if err != nil {
		return nil, fmt.Errorf("streams: admin client: %w", err)
	}
	defer cl.Close()
	admin := kadm.NewClient(cl)
	ictx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()

	if s.topo.HasPatternSources() {
		if err := s.matchPatterns(ictx, admin); err != nil {
			return nil, err
		}
	}
	external := map[string]bool{}
	for _, st := range s.topo.Subtopologies() {
		for _, src := range st.Sources {
			if !src.Internal {
				external[src.Name] = true
			}
		}
	}
	counts := map[string]int{}
	for topic := range external {
		n, err := topicPartitions(ictx, cl, topic, "source", startMetadataWait)
		if err != nil {
			return nil, fmt.Errorf("streams: %w (is %v reachable?)", err, s.cfg.BootstrapServers)
		}
		if n == 0 {
			return nil, fmt.Errorf("%w: source topic %s is missing on %v (create it before starting the application)",
				ErrMissingSourceTopics, topic, s.cfg.BootstrapServers)
		}
		counts[topic] = n
	}
	itc := internalTopicsConfig(s.cfg)
	parts, tasks, err := s.topo.InternalTopicPartitions(itc, func(t string) (int, bool) { n, ok := counts[t]; return n, ok })
	s.internalCounts, s.sourceCounts = map[string]int32{}, map[string]int32{}
	for topic, n := range counts {
		s.sourceCounts[topic] = int32(n)
	}
	if err != nil {
		return nil, err
	}
	if err := checkInternalNames(ictx, admin, s.cfg.ApplicationID, s.topo.InternalTopics(itc)); err != nil {
		return nil, err
	}
	for _, it := range s.topo.InternalTopics(itc) {
		n := it.NumPartitions
		if n <= 0 {
			n = parts[it.Name]
		}
		if n <= 0 {
			// Only a pattern source gives a sub-topology no topic.
			return nil, fmt.Errorf("streams: internal topic %s has no partition count: the pattern sources of sub-topology %d "+
				"match no topic on %v; create a topic they match before starting the application", it.Name, it.Subtopology, s.cfg.BootstrapServers)
		}
		configs := map[string]*string{}
		for k, v := range it.Configs {
			configs[k] = &v
		}
		err := retryRequest(ictx, func(ctx context.Context) error {
			resp, err := admin.CreateTopic(ctx, int32(n), int16(s.cfg.ReplicationFactor), configs, it.Name)
			if err == nil {
				err = resp.Err
			}
			return err
		})
		s.internalCounts[it.Name] = int32(n)
		switch {
		case err == nil:
			s.log.Info("created internal topic", "topic", it.Name, "partitions", n)
		case errors.Is(err, kerr.TopicAlreadyExists):
			if err := checkPartitions(ictx, cl, it.Name, n); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("streams: creating internal topic %s: %w", it.Name, err)
		}
	}
	return tasks, nil
}

// matchPatterns sets the topics of the topology's pattern sources to the
// cluster's topics they match, as Kafka Streams' assignor does from the
// consumer's pattern subscription: the task counts and the internal
// topics' partition counts count them.
func (s *KafkaStreams) matchPatterns(ctx context.Context, admin *kadm.Client) error {
	var listed kadm.TopicDetails
	err := retryRequest(ctx, func(ctx context.Context) error {
		var err error
		listed, err = admin.ListTopics(ctx) // internal topics left out, as Kafka's consumer leaves them
		return err
	})
	if err != nil {
		return fmt.Errorf("streams: listing topics for the pattern sources: %w (is %v reachable?)", err, s.cfg.BootstrapServers)
	}
	topo, err := s.declared.MatchPatterns(listed.Names())
	if err != nil {
		return err
	}
	s.topo = topo
	for _, st := range topo.Subtopologies() {
		if len(topo.SourcePatterns(st.ID)) == 0 {
			continue
		}
		var topics []string
		for _, src := range st.Sources {
			topics = append(topics, src.Decorated(s.cfg.ApplicationID))
		}
		s.log.Info("pattern sources matched topics", "subtopology", st.ID, "topics", topics)
	}
	return nil
}

func checkPartitions(ctx context.Context, cl *kgo.Client, topic string, want int) error {
	// The broker refused the creation because the topic exists, yet its
	// metadata may not show it for a moment: another instance starting
	// at the same time has just created it. Absent is not 0 partitions.
	deadline := time.Now().Add(startMetadataWait)
	var got int
	for {
		var err error
		got, err = topicPartitions(ctx, cl, topic, "internal", time.Until(deadline))
		if err != nil {
			return fmt.Errorf("streams: %w", err)
		}
		if got > 0 || !time.Now().Before(deadline) {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("streams: internal topic %s exists but its metadata does not show it: %w", topic, context.Cause(ctx))
		case <-time.After(100 * time.Millisecond):
		}
	}
	if got != want {
		return fmt.Errorf("streams: internal topic %s has %d partitions, the topology needs %d: "+
			"the source topics changed since it was created; reset the application (delete its internal topics and state)",
			topic, got, want)
	}
	return nil
}

// startMetadataWait bounds each metadata look-up of Start (ctx may end
// sooner).
const startMetadataWait = 60 * time.Second

// topicPartitions returns a topic's partition count, 0 when the topic does
// not exist, waiting up to bound or until ctx ends, whichever comes first.
// A broker that cannot be reached yet is retried by franz-go meanwhile.
func topicPartitions(ctx context.Context, cl *kgo.Client, topic, role string, bound time.Duration) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	for {
		var md kadm.Metadata
		err := retryRequest(ctx, func(ctx context.Context) error {
			var err error
			md, err = kadm.NewClient(cl).Metadata(ctx, topic)
			return err
		})
		if err != nil {
			return 0, fmt.Errorf("metadata of %s topic %s: %w", role, topic, err)
		}
		d, ok := md.Topics[topic]
		switch {
		case ok && d.Err == nil:
			return len(d.Partitions), nil
		case !ok, errors.Is(d.Err, kerr.UnknownTopicOrPartition):
			return 0, nil
		case errors.Is(d.Err, kerr.LeaderNotAvailable):
			// A topic just created: its partitions get leaders shortly.
			select {
			case <-ctx.Done():
				return 0, fmt.Errorf("metadata of %s topic %s: %w", role, topic, withCause(ctx, d.Err))
			case <-time.After(100 * time.Millisecond):
			}
		default:
			return 0, fmt.Errorf("metadata of %s topic %s: %w", role, topic, d.Err)
		}
	}
}
