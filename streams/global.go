package streams

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/state/rocksdb"
)

// globalThread is Kafka Streams' GlobalStreamThread with its
// GlobalStateManagerImpl: one per instance when the topology has global
// stores. Its consumer joins no group: it assigns itself every partition of
// the global topics. Start restores every global store from its topic (the
// topic is the store's changelog; a global store has none of its own) up to
// the topic's end before any stream thread processes a record; run then
// keeps the stores up to date. The stores are transactional like every
// other: writes stay in the overlay until a commit writes them to the store
// together with the topic offsets they reflect, every commit.interval.ms
// or as soon as their uncommitted bytes pass the thread's share of
// statestore.uncommitted.max.bytes. The thread is the stores' only writer;
// stream tasks and interactive queries read them through read-only views.
type globalThread struct {
	s        *KafkaStreams
	log      *slog.Logger
	dir      string
	consumer *kgo.Client
	budget   *state.Budget
	// limit is the thread's share of statestore.uncommitted.max.bytes
	// (-1: no bound).
	limit   int64
	stores  []*globalState
	byTopic map[string]*globalState
	// views are the read-only byte stores stream tasks read, by store name.
	views      map[string]kstreams.StateStore
	lastCommit time.Time
}

// globalState is one global store: the store, the task that runs its
// processor, and the offset of the last record of each topic partition
// whose effect the store holds (committed or in the overlay).
type globalState struct {
	info       kstreams.GlobalStoreInfo
	store      state.KeyValueStore
	task       *kstreams.Task
	partitions int
	offsets    map[int32]int64
	dirty      bool
}

func (gs *globalState) tp(p int32) state.TopicPartition {
	return state.TopicPartition{Topic: gs.info.Topic, Partition: p}
}

// globalRestoreBatch is how many records of a global topic go into one
// store write batch while a global table restores.
const globalRestoreBatch = 4096

// newGlobalThread opens the global stores under <state.dir>/<application.id>/global
// and restores them to the end of their topics. On an error it has
// released what it took.
func newGlobalThread(ctx context.Context, s *KafkaStreams) (_ *globalThread, err error) {
	g := &globalThread{s: s, log: s.log.With("thread", "global"), budget: &state.Budget{}, byTopic: map[string]*globalState{},
		views: map[string]kstreams.StateStore{},
		limit: compat.UncommittedShare(s.cfg.UncommittedMaxBytes, s.cfg.NumStreamThreads, true)}
	defer func() {
		if err != nil {
			g.close(false)
		}
	}()
	if g.dir, err = s.dir.GlobalDir(); err != nil {
		return nil, err
	}
	copts, err := s.cfg.GlobalConsumerOptions(s.processID)
	if err != nil {
		return nil, fmt.Errorf("streams: global consumer: %w", err)
	}
	// Markers come through, so that the restore sees its position pass the
	// end of a transactional topic; an offset out of range is an error, never
	// a silent jump.
	copts = append(copts, kgo.KeepControlRecords(), kgo.ConsumeResetOffset(kgo.NoResetOffset()))
	copts = append(copts, s.clientObservers(g.log, "global-consumer")...)
	if g.consumer, err = kgo.NewClient(copts...); err != nil {
		return nil, fmt.Errorf("streams: global consumer: %w", err)
	}
	for _, info := range s.topo.GlobalStores() {
		gs, err := g.open(ctx, info)
		if err != nil {
			return nil, err
		}
		g.stores = append(g.stores, gs)
		g.byTopic[info.Topic] = gs
	}
	if err := g.restore(ctx); err != nil {
		return nil, err
	}
	for _, gs := range g.stores {
		g.views[gs.info.Store.Name] = kstreams.GlobalKeyValueBytes(gs.info.Store.Name, gs.store.ReadOnly(state.ReadUncommitted))
	}
	g.lastCommit = time.Now()
	return g, nil
}

// open opens one global store and reads the offsets it holds. A store
// whose files are corrupted is deleted and restored in full.
func (g *globalThread) open(ctx context.Context, info kstreams.GlobalStoreInfo) (*globalState, error) {
	n, err := topicPartitions(ctx, g.consumer, info.Topic, "global", startMetadataWait)
	if err != nil {
		return nil, fmt.Errorf("streams: %w (is %v reachable?)", err, g.s.cfg.BootstrapServers)
	}
	if n == 0 {
		return nil, fmt.Errorf("streams: global topic %s of store %s is missing on %v (create it before starting the application)",
			info.Topic, info.Store.Name, g.s.cfg.BootstrapServers)
	}
	gs := &globalState{info: info, partitions: n, offsets: map[int32]int64{}}
	gs.store, err = g.openStore(info.Store)
	if errors.Is(err, state.ErrCorrupted) {
		g.log.Warn("global store files are corrupted; deleting them and restoring the store from its topic",
			"store", info.Store.Name, "err", err)
		if rmErr := os.RemoveAll(state.KeyValueDir(g.dir, info.Store.Name)); rmErr != nil {
			return nil, fmt.Errorf("streams: global store %s: %w; removing it failed too: %v", info.Store.Name, err, rmErr)
		}
		gs.store, err = g.openStore(info.Store)
	}
	if err != nil {
		return nil, fmt.Errorf("streams: opening global store %s: %w", info.Store.Name, err)
	}
	for p := int32(0); p < int32(n); p++ {
		off, ok, err := gs.store.CommittedOffset(gs.tp(p))
		if err != nil {
			gs.store.Close()
			return nil, err
		}
		if ok {
			gs.offsets[p] = off
		}
	}
	return gs, nil
}

func (g *globalThread) openStore(spec *kstreams.StoreSpec) (state.KeyValueStore, error) {
	o := state.KeyValueOptions{Name: spec.Name, Timestamped: spec.Timestamped, Budget: g.budget}
	if spec.Type.Resolve(dslStoreType(g.s.cfg.DSLStore)) == kstreams.RocksDB {
		return rocksdb.OpenKeyValue(g.dir, o, rocksdb.Options{WriteBufferBytes: g.s.cfg.WriteBufferBytes(spec.Name)})
	}
	return state.NewInMemoryKeyValue(o), nil
}

// reopenEmpty deletes a global store's files and offsets and opens it empty.
func (g *globalThread) reopenEmpty(gs *globalState) error {
	gs.store.Close()
	if err := os.RemoveAll(state.KeyValueDir(g.dir, gs.info.Store.Name)); err != nil {
		return fmt.Errorf("streams: emptying global store %s: %w", gs.info.Store.Name, err)
	}
	fresh, err := g.openStore(gs.info.Store)
	if err != nil {
		return err
	}
	gs.store, gs.offsets = fresh, map[int32]int64{}
	return nil
}

// startTask builds the processor of a global store over it.
func (g *globalThread) startTask(gs *globalState) error {
	cfg := g.s.cfg
	keySerde, err := g.s.defaultSerde(true)
	if err != nil {
		return err
	}
	valSerde, err := g.s.defaultSerde(false)
	if err != nil {
		return err
	}
	id := kstreams.TaskID{Subtopology: gs.info.ID, Partition: -1}
	task, err := g.s.topo.NewTask(kstreams.TaskConfig{
		ApplicationID: cfg.ApplicationID, AppConfigs: g.s.appConfigs, Subtopology: gs.info.ID, Partition: -1,
		DefaultKeySerde: keySerde, DefaultValueSerde: valSerde,
		Stores: map[string]kstreams.StateStore{gs.info.Store.Name: gs.store}, Output: globalCollector{gs.info.Store.Name},
		OnDroppedRecord:           func(p, reason string) { g.s.hks.OnDroppedRecord(id, p, reason) },
		DefaultTimestampExtractor: timestampExtractor(cfg.TimestampExtractor),
		Logger:                    g.log,
	})
	if err != nil {
		return fmt.Errorf("streams: global store %s: %w", gs.info.Store.Name, err)
	}
	if err := task.Init(); err != nil {
		return fmt.Errorf("streams: global store %s: %w", gs.info.Store.Name, err)
	}
	gs.task = task
	return nil
}

// globalCollector refuses what a global store's task would send: its
// processor has no children and its store no changelog.
type globalCollector struct{ store string }

func (c globalCollector) Send(r kstreams.ProducerRecord) error {
	return fmt.Errorf("streams: the processor of global store %s wrote to %s; a global store's processor cannot forward records", c.store, r.Topic)
}

// partitionRestore is one global topic partition catching up.
type partitionRestore struct {
	gs    *globalState
	p     int32
	end   int64
	pos   int64 // offset of the last record read, markers included; -1 before any
	idle  time.Duration
	batch []state.ChangelogRecord
	last  int64 // offset of the last record in batch
}

// restore reads every global topic partition from the offset its store
// holds + 1 (from the log start when it holds none, or one older than the
// log start: then the store is emptied and restored in full) to the
// partition's end when the restore began. A global table's records are
// written into the store as they are, with their offsets, batch by batch;
// a global store fed by a processor restores through its processor, and
// commits when its overlay grows past the thread's share or at the end.
func (g *globalThread) restore(ctx context.Context) error {
	var todo []*partitionRestore
	assign := map[string]map[int32]kgo.Offset{}
	for _, gs := range g.stores {
		lo, hi, err := g.watermarks(ctx, gs.info.Topic)
		if err != nil {
			return err
		}
		full := len(gs.offsets) == 0
		if gs.task != nil {
			return fmt.Errorf("streams: global store %s restored twice", gs.info.Store.Name)
		}
		for p := int32(0); p < int32(gs.partitions); p++ {
			// A partition the store holds no offset of starts at its log
			// start; one whose next record was deleted may have left rows
			// the store must not keep (a removed tombstone's key), so the
			// whole store restores again, as Kafka Streams reinitializes it.
			if off, ok := gs.offsets[p]; ok && off+1 < lo[p] {
				g.log.Warn("global store offset is older than its topic's log start; restoring the store in full",
					"store", gs.info.Store.Name, "partition", p, "log_start", lo[p])
				if err := g.reopenEmpty(gs); err != nil {
					return err
				}
				full = true
				break
			}
		}
		// The processor runs over the store as it is now: restore
		// records of AddGlobalStore, and records past a restored
		// partition's end, go through it.
		if err := g.startTask(gs); err != nil {
			return err
		}
		assign[gs.info.Topic] = map[int32]kgo.Offset{}
		for p := int32(0); p < int32(gs.partitions); p++ {
			start := lo[p]
			if off, ok := gs.offsets[p]; ok {
				start = off + 1
			}
			tp := gs.tp(p)
			g.s.hks.OnRestoreStart(gs.info.Store.Name, tp, start, hi[p], full)
			assign[gs.info.Topic][p] = kgo.NewOffset().At(start)
			if start >= hi[p] {
				g.s.hks.OnRestoreEnd(gs.info.Store.Name, tp, 0)
				continue
			}
			g.log.Info("restoring global store", "store", gs.info.Store.Name, "topic", gs.info.Topic, "partition", p,
				"from", start, "to", hi[p], "records_to_go", hi[p]-start, "full", full)
			todo = append(todo, &partitionRestore{gs: gs, p: p, end: hi[p], pos: -1, last: -1})
		}
	}
	g.consumer.AddConsumePartitions(assign)
	applied := map[*partitionRestore]int64{}
	for len(todo) > 0 {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		pctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		polledAt := time.Now()
		fs := g.consumer.PollRecords(pctx, globalRestoreBatch)
		cancel()
		polled := time.Since(polledAt)
		if err := g.fetchErrors(fs); err != nil {
			return err
		}
		got := map[*partitionRestore]bool{}
		for _, r := range fs.Records() {
			pr := findRestore(todo, r.Topic, r.Partition)
			if pr == nil {
				// A partition restored already: its records are updates.
				if err := g.update(r); err != nil {
					return err
				}
				continue
			}
			got[pr] = true
			if r.Offset <= pr.pos {
				continue
			}
			pr.pos, pr.idle = r.Offset, 0
			if r.Attrs.IsControl() {
				continue
			}
			if err := g.restoreRecord(pr, r); err != nil {
				return err
			}
			applied[pr]++
		}
		var left []*partitionRestore
		for _, pr := range todo {
			if !got[pr] {
				pr.idle += polled
			}
			done := pr.pos+1 >= pr.end
			if !done && pr.idle > restoreStallWait {
				// As the stream threads' restore: the end may sit past
				// records compaction removed or a transaction aborted.
				_, hi, err := g.watermarks(ctx, pr.gs.info.Topic)
				done = err == nil && hi[pr.p] == pr.end
				pr.idle = 0
			}
			if !done {
				left = append(left, pr)
				continue
			}
			if err := g.flushRestore(pr); err != nil {
				return err
			}
			g.s.hks.OnRestoreEnd(pr.gs.info.Store.Name, pr.gs.tp(pr.p), applied[pr])
			g.log.Info("global store partition restored", "store", pr.gs.info.Store.Name, "partition", pr.p, "records", applied[pr])
		}
		todo = left
		if g.limit > 0 && g.budget.Total() > g.limit {
			if err := g.commit(); err != nil {
				return err
			}
		}
	}
	return g.commit()
}

func findRestore(todo []*partitionRestore, topic string, p int32) *partitionRestore {
	for _, pr := range todo {
		if pr.gs.info.Topic == topic && pr.p == p {
			return pr
		}
	}
	return nil
}

// restoreRecord applies one record of a global topic during restore.
func (g *globalThread) restoreRecord(pr *partitionRestore, r *kgo.Record) error {
	gs := pr.gs
	if gs.info.ReprocessOnRestore {
		return g.processRecord(gs, r)
	}
	// A global table restores its topic's bytes: a record without a key
	// cannot be a row, and Kafka Streams skips it too.
	if r.Key != nil {
		pr.batch = append(pr.batch, state.ChangelogRecord{Key: r.Key, Value: r.Value, Timestamp: recordTimestamp(r)})
	}
	pr.last = r.Offset
	if len(pr.batch) >= globalRestoreBatch {
		return g.flushRestore(pr)
	}
	return nil
}

// flushRestore writes a global table's restored batch with its offset.
func (g *globalThread) flushRestore(pr *partitionRestore) error {
	if pr.gs.info.ReprocessOnRestore || pr.last < 0 {
		return nil
	}
	n := len(pr.batch)
	if err := pr.gs.store.ApplyChangelog(pr.batch, pr.gs.tp(pr.p), pr.last); err != nil {
		return fmt.Errorf("streams: restoring global store %s from %s at offset %d: %w", pr.gs.info.Store.Name, pr.gs.tp(pr.p), pr.last, err)
	}
	// Only now does the store hold these records: a commit of the overlay
	// (for a partition that restored already) must not write this
	// partition's offset ahead of its data.
	pr.gs.offsets[pr.p] = pr.last
	pr.batch, pr.last = pr.batch[:0], -1
	if n > 0 {
		g.s.hks.OnRestoreBatch(pr.gs.info.Store.Name, pr.gs.tp(pr.p), n)
	}
	return nil
}

// watermarks returns the log start and the end (the last stable offset
// under exactly_once_v2, whose consumer reads committed records only; else
// the high watermark) of every partition of topic.
func (g *globalThread) watermarks(ctx context.Context, topic string) (lo, hi map[int32]int64, err error) {
	wctx, cancel := context.WithTimeout(ctx, changelogWatermarksWait)
	defer cancel()
	adm := kadm.NewClient(g.consumer)
	var starts, ends kadm.ListedOffsets
	err = retryRequest(wctx, func(ctx context.Context) error {
		var err error
		if starts, err = adm.ListStartOffsets(ctx, topic); err != nil {
			return err
		}
		if g.s.cfg.ExactlyOnce() {
			ends, err = adm.ListCommittedOffsets(ctx, topic)
		} else {
			ends, err = adm.ListEndOffsets(ctx, topic)
		}
		return err
	})
	if err != nil {
		return nil, nil, fmt.Errorf("streams: watermarks of global topic %s: %w", topic, err)
	}
	lo, hi = map[int32]int64{}, map[int32]int64{}
	for _, o := range starts[topic] {
		if o.Err != nil {
			return nil, nil, fmt.Errorf("streams: log start of global topic %s [%d]: %w", topic, o.Partition, o.Err)
		}
		lo[o.Partition] = o.Offset
	}
	for _, o := range ends[topic] {
		if o.Err != nil {
			return nil, nil, fmt.Errorf("streams: end of global topic %s [%d]: %w", topic, o.Partition, o.Err)
		}
		hi[o.Partition] = o.Offset
	}
	return lo, hi, nil
}

// fetchErrors turns a poll's fatal errors into the thread's error.
func (g *globalThread) fetchErrors(fs kgo.Fetches) error {
	var fatal error
	fs.EachError(func(topic string, partition int32, err error) {
		switch {
		case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		case errors.Is(err, kerr.OffsetOutOfRange):
			if fatal == nil {
				fatal = fmt.Errorf("streams: global consumer: %s [%d]: %w (records the global store still needs were deleted; "+
					"delete the application's global state directory to restore it from the topic's log start)", topic, partition, err)
			}
		case errors.Is(err, kgo.ErrClientClosed), errors.Is(err, kerr.TopicAuthorizationFailed):
			if fatal == nil {
				fatal = fmt.Errorf("streams: global consumer: %s [%d]: %w", topic, partition, err)
			}
		default:
			g.log.Warn("global consumer", "topic", topic, "partition", partition, "err", err)
		}
	})
	return fatal
}

// processRecord runs one record of a global topic through its store's
// processor. A record that fails to deserialize goes to
// deserialization.exception.handler, as in Kafka Streams' global thread:
// skipped and counted under LogAndContinue, fatal otherwise. Any other
// failure stops the instance.
func (g *globalThread) processRecord(gs *globalState, r *kgo.Record) error {
	err := gs.task.Process(r.Topic, r.Partition, r.Offset, r.Key, r.Value, recordTimestamp(r), recordHeaders(r))
	if err != nil {
		where := fmt.Sprintf("%s-%d@%d", r.Topic, r.Partition, r.Offset)
		var de *kstreams.DeserializationError
		if !errors.As(err, &de) {
			return fmt.Errorf("streams: global store %s: %w (record %s)", gs.info.Store.Name, err, where)
		}
		handler := g.s.cfg.DeserializationExceptionHandler
		if handler != compat.DeserializationLogAndContinue {
			return fmt.Errorf("streams: global store %s: %w (record %s; handler %s stops the application: fix or remove the record, "+
				"or choose a LogAndContinue handler to skip it)", gs.info.Store.Name, err, where, handler)
		}
		g.log.Warn("skipping record", "reason", "deserialization-error", "store", gs.info.Store.Name, "record", where, "err", err)
		g.s.hks.OnDroppedRecord(gs.task.ID(), "", "deserialization-error")
	}
	if pt, ok := gs.store.(state.PositionTracker); ok {
		pt.UpdatePosition(r.Topic, r.Partition, r.Offset)
	}
	gs.offsets[r.Partition] = r.Offset
	gs.dirty = true
	return nil
}

// commit writes every global store's overlay with the topic offsets it
// reflects, in one store write each. A store with nothing new is skipped.
func (g *globalThread) commit() error {
	for _, gs := range g.stores {
		if !gs.dirty || len(gs.offsets) == 0 {
			continue
		}
		offsets := make(map[state.TopicPartition]*int64, len(gs.offsets))
		for p, o := range gs.offsets {
			offsets[gs.tp(p)] = state.Offset(o)
		}
		if err := gs.store.Commit(offsets); err != nil {
			return fmt.Errorf("streams: committing global store %s: %w", gs.info.Store.Name, err)
		}
		gs.dirty = false
		g.s.hks.OnStoreUncommittedBytes(gs.task.ID(), gs.info.Store.Name, 0)
	}
	g.lastCommit = time.Now()
	return nil
}

// run keeps the global stores up to date until ctx ends, then commits what
// it applied and closes them.
func (g *globalThread) run(ctx context.Context) (err error) {
	defer func() {
		if err != nil && ctx.Err() != nil && interrupted(err) {
			err = nil
		}
		g.close(err == nil)
	}()
	for ctx.Err() == nil {
		pctx, cancel := context.WithTimeout(ctx, g.s.cfg.PollTimeout)
		fs := g.consumer.PollRecords(pctx, g.s.cfg.MaxPollRecords)
		cancel()
		if err := g.fetchErrors(fs); err != nil {
			return err
		}
		for _, r := range fs.Records() {
			if err := g.update(r); err != nil {
				return err
			}
		}
		for _, gs := range g.stores {
			g.s.hks.OnStoreUncommittedBytes(gs.task.ID(), gs.info.Store.Name, gs.store.ApproximateNumUncommittedBytes())
		}
		if (g.limit > 0 && g.budget.Total() > g.limit) || time.Since(g.lastCommit) >= g.s.cfg.CommitInterval {
			if err := g.commit(); err != nil {
				return err
			}
		}
	}
	return nil
}

// update applies one record of a global topic once its partition is
// restored.
func (g *globalThread) update(r *kgo.Record) error {
	gs := g.byTopic[r.Topic]
	if gs == nil || r.Attrs.IsControl() {
		return nil
	}
	if off, ok := gs.offsets[r.Partition]; ok && r.Offset <= off {
		return nil // applied already
	}
	return g.processRecord(gs, r)
}

// close commits (clean) or drops (dirty) what the overlays hold, then
// closes the stores and the consumer. Safe to call twice.
func (g *globalThread) close(clean bool) {
	if clean {
		if err := g.commit(); err != nil {
			g.log.Warn("final commit of the global stores failed; the next start replays their topics' tail", "err", err)
		}
	}
	for _, gs := range g.stores {
		if gs.task != nil {
			if err := gs.task.Close(); err != nil {
				g.log.Warn("closing the processor of a global store", "store", gs.info.Store.Name, "err", err)
			}
		}
		gs.store.Close()
		g.s.unregisterGlobal(gs)
	}
	g.stores = nil
	if g.consumer != nil {
		g.consumer.Close()
		g.consumer = nil
	}
}

// registerGlobals makes the global stores visible to interactive queries.
func (s *KafkaStreams) registerGlobals(g *globalThread) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mu.globals == nil {
		s.mu.globals = map[string]*globalState{}
	}
	for _, gs := range g.stores {
		s.mu.globals[gs.info.Store.Name] = gs
	}
}

func (s *KafkaStreams) unregisterGlobal(gs *globalState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mu.globals[gs.info.Store.Name] == gs {
		delete(s.mu.globals, gs.info.Store.Name)
	}
}

// globalViews are the byte stores through which stream tasks read the
// global stores (nil without global stores).
func (s *KafkaStreams) globalViews() map[string]kstreams.StateStore {
	if s.global == nil {
		return nil
	}
	return s.global.views
}

// localGlobalLocked returns the global store named name as a LocalStore: one
// store holding every partition of its topic, with Partition -1 and
// Global set.
func (s *KafkaStreams) localGlobalLocked(name string) (LocalStore, bool) {
	gs, ok := s.mu.globals[name]
	if !ok {
		return LocalStore{}, false
	}
	return LocalStore{Name: name, Partition: -1, Kind: gs.info.Store.Kind, Store: gs.store, Global: true}, true
}
