// Package kstreamstest runs a kstreams Topology in process, like Kafka
// Streams' TopologyTestDriver: records piped into source topics go through
// the topology synchronously, repartition topics are routed in process, and
// every record written (to sinks, repartition topics and changelogs) is kept
// for inspection with its partition and timestamp.
package kstreamstest

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
)

// Config configures a Driver.
type Config struct {
	// ApplicationID prefixes internal topics; "test" if empty.
	ApplicationID string
	// AppConfigs is what the processors' AppConfigs gives (Kafka's
	// TopologyTestDriver passes its Properties).
	AppConfigs map[string]string
	// DefaultKeySerde and DefaultValueSerde stand in for
	// default.key.serde / default.value.serde.
	DefaultKeySerde, DefaultValueSerde serde.Untyped
	// Partitions is the partition count of every topic; 1 if zero.
	Partitions int
	// Caching turns on the stores' record caches, flushed after each record
	// a task processes, as TopologyTestDriver commits after each record with
	// a cache configured (statestore.cache.max.bytes > 0, Kafka's default).
	// Off, every update is forwarded as it happens.
	Caching bool
	// CacheMaxBytes replaces the 10 MiB cache of Caching when above zero.
	CacheMaxBytes int64
	// TimestampExtractor stands in for default.timestamp.extractor: it gives
	// timestamps to the records of every source whose Consumed names no
	// extractor; FailOnInvalidTimestamp if nil. Pipe returns the error of an
	// extractor that fails, and a record whose extracted timestamp is
	// negative is dropped and listed by Dropped.
	TimestampExtractor kstreams.TimestampExtractor
	// WallClockStart is the driver's wall clock at the start, for wall-clock
	// punctuations; AdvanceWallClock moves it. The zero time means the Unix
	// epoch.
	WallClockStart time.Time
	// OuterJoinEmitIntervalMs throttles a left or outer stream-stream
	// join's scans of its shared store to one per interval of the driver's
	// wall clock (kstreams.TaskConfig.OuterJoinEmitIntervalMs). Zero, as
	// Kafka's own join tests set it, scans at every record.
	OuterJoinEmitIntervalMs int64
	// WindowedAggregationEmitIntervalMs throttles the final results of a
	// windowed aggregation with EmitOnWindowClose to one emission per
	// interval of the driver's wall clock
	// (kstreams.TaskConfig.WindowedAggregationEmitIntervalMs). Zero, as
	// most of Kafka's tests of it set it, emits at every record that closes
	// a window.
	WindowedAggregationEmitIntervalMs int64
	// ProductionExceptionHandler answers a sink record whose serde fails,
	// as production.exception.handler does in TopologyTestDriver; nil
	// fails the record (Kafka's default handler). Configured with
	// AppConfigs when it has a Configure method.
	ProductionExceptionHandler kstreams.ProductionExceptionHandler
}

// Record is one record the topology wrote.
type Record struct {
	Topic     string
	Partition int32
	Offset    int64
	Key       []byte
	Value     []byte
	Timestamp int64
	Headers   []kstreams.Header
}

// Driver runs a topology in process. It is not safe for concurrent use.
type Driver struct {
	topo       *kstreams.Topology
	cfg        Config
	tasks      map[kstreams.TaskID]*kstreams.Task
	stores     map[kstreams.TaskID]map[string]kstreams.StateStore
	sources    *kstreams.SourceIndex // broker topic → sub-topology reading it
	changelogs map[string]string     // changelog topic → store
	records    map[string][]Record
	read       map[string]int
	offsets    map[string]map[int32]int64
	queue      []Record
	dropped    []Dropped
	now        time.Time
	// globals are the global stores' tasks by global topic, and their
	// stores, which every stream task reads.
	globals      map[string]*kstreams.Task
	globalStores map[string]state.KeyValueStore
}

// Dropped is a record a processor skipped.
type Dropped struct {
	Task      kstreams.TaskID
	Processor string
	Reason    string
}

// New returns a driver for topo.
func New(topo *kstreams.Topology, cfg Config) (*Driver, error) {
	if cfg.ApplicationID == "" {
		cfg.ApplicationID = "test"
	}
	if cfg.Partitions <= 0 {
		cfg.Partitions = 1
	}
	d := &Driver{topo: topo, cfg: cfg, tasks: map[kstreams.TaskID]*kstreams.Task{},
		stores:     map[kstreams.TaskID]map[string]kstreams.StateStore{},
		changelogs: map[string]string{}, records: map[string][]Record{},
		read: map[string]int{}, offsets: map[string]map[int32]int64{}, now: cfg.WallClockStart}
	if d.now.IsZero() {
		d.now = time.UnixMilli(0)
	}
	if c, ok := cfg.ProductionExceptionHandler.(kstreams.Configurable); ok {
		if err := c.Configure(cfg.AppConfigs); err != nil {
			return nil, fmt.Errorf("kstreamstest: configuring the production exception handler: %w", err)
		}
	}
	if err := d.openGlobals(); err != nil {
		return nil, err
	}
	d.sources = topo.SourceIndex(cfg.ApplicationID)
	for _, st := range topo.Subtopologies() {
		for _, s := range st.Stores {
			d.changelogs[kstreams.ChangelogTopic(cfg.ApplicationID, s.Name)] = s.Name
		}
	}
	return d, nil
}

func (d *Driver) task(sub int, partition int32) (*kstreams.Task, error) {
	id := kstreams.TaskID{Subtopology: sub, Partition: partition}
	if t, ok := d.tasks[id]; ok {
		return t, nil
	}
	stores := map[string]kstreams.StateStore{}
	for _, s := range d.topo.Subtopologies()[sub].Stores {
		switch s.Kind {
		case kstreams.KeyValueStoreKind:
			if s.LRU {
				kv, err := state.NewInMemoryLRUKeyValue(state.LRUOptions{Name: s.Name, MaxEntries: s.MaxCacheSize})
				if err != nil {
					return nil, err
				}
				stores[s.Name] = kv
				continue
			}
			stores[s.Name] = state.NewInMemoryKeyValue(state.KeyValueOptions{Name: s.Name, Timestamped: s.Timestamped})
		case kstreams.WindowStoreKind:
			ws, err := state.NewInMemoryWindow(state.WindowOptions{Name: s.Name, RetentionMs: s.Retention, Timestamped: s.Timestamped, RetainDuplicates: s.RetainDuplicates, TimeOrdered: s.TimeOrdered})
			if err != nil {
				return nil, err
			}
			stores[s.Name] = kstreams.WindowBytes(ws)
		case kstreams.VersionedStoreKind:
			vs, err := state.NewInMemoryVersioned(state.VersionedOptions{Name: s.Name, HistoryRetentionMs: s.Retention, SegmentIntervalMs: s.SegmentInterval})
			if err != nil {
				return nil, err
			}
			stores[s.Name] = vs
		case kstreams.SessionStoreKind:
			ss, err := state.NewInMemorySession(state.SessionOptions{Name: s.Name, RetentionMs: s.Retention})
			if err != nil {
				return nil, err
			}
			stores[s.Name] = kstreams.SessionBytes(ss)
		}
	}
	globals := map[string]kstreams.StateStore{}
	for name, gs := range d.globalStores {
		globals[name] = kstreams.GlobalKeyValueBytes(name, gs.ReadOnly(state.ReadUncommitted))
	}
	t, err := d.topo.NewTask(kstreams.TaskConfig{ApplicationID: d.cfg.ApplicationID, AppConfigs: d.cfg.AppConfigs, Subtopology: sub, Partition: partition,
		DefaultKeySerde: d.cfg.DefaultKeySerde, DefaultValueSerde: d.cfg.DefaultValueSerde, Stores: stores, Output: d,
		GlobalStores:                      globals,
		OnDroppedRecord:                   func(p, reason string) { d.dropped = append(d.dropped, Dropped{Task: id, Processor: p, Reason: reason}) },
		CacheMaxBytes:                     d.cacheBytes(),
		DefaultTimestampExtractor:         d.cfg.TimestampExtractor,
		WallClock:                         func() time.Time { return d.now },
		OuterJoinEmitIntervalMs:           d.cfg.OuterJoinEmitIntervalMs,
		WindowedAggregationEmitIntervalMs: d.cfg.WindowedAggregationEmitIntervalMs,
		ProductionExceptionHandler:        d.cfg.ProductionExceptionHandler})
	if err != nil {
		return nil, err
	}
	if err := t.Init(); err != nil {
		return nil, err
	}
	d.tasks[id] = t
	d.stores[id] = stores
	return t, nil
}

// cacheBytes is Kafka's default statestore.cache.max.bytes (10 MiB) when
// caching is on.
func (d *Driver) cacheBytes() int64 {
	if d.cfg.Caching && d.cfg.CacheMaxBytes > 0 {
		return d.cfg.CacheMaxBytes
	}
	if d.cfg.Caching {
		return 10 << 20
	}
	return 0
}

func (d *Driver) nextOffset(topic string, partition int32) int64 {
	m := d.offsets[topic]
	if m == nil {
		m = map[int32]int64{}
		d.offsets[topic] = m
	}
	o := m[partition]
	m[partition] = o + 1
	return o
}

// Partitions implements kstreams.PartitionCounter: every topic has
// Config.Partitions partitions.
func (d *Driver) Partitions(string) (int, error) { return d.cfg.Partitions, nil }

// Send implements kstreams.RecordCollector: it keeps the record and, for a
// repartition topic, queues it for the sub-topology reading it.
func (d *Driver) Send(pr kstreams.ProducerRecord) error {
	partition := pr.Partition
	if partition < 0 {
		partition = kstreams.DefaultPartition(pr.PartitionKey, d.cfg.Partitions)
	}
	topic := pr.Topic
	r := Record{Topic: topic, Partition: partition, Offset: d.nextOffset(topic, partition),
		Key: slices.Clone(pr.Key), Value: slices.Clone(pr.Value), Timestamp: pr.Timestamp, Headers: pr.Headers}
	d.records[topic] = append(d.records[topic], r)
	if d.sources.Internal(topic) {
		d.queue = append(d.queue, r)
	}
	return nil
}

// openGlobals creates the task of every global store, as the global thread
// does before any stream task runs: records piped into a global topic go
// through it at once, and every stream task reads its store.
func (d *Driver) openGlobals() error {
	d.globals, d.globalStores = map[string]*kstreams.Task{}, map[string]state.KeyValueStore{}
	for _, g := range d.topo.GlobalStores() {
		kv := state.NewInMemoryKeyValue(state.KeyValueOptions{Name: g.Store.Name, Timestamped: g.Store.Timestamped})
		t, err := d.topo.NewTask(kstreams.TaskConfig{ApplicationID: d.cfg.ApplicationID, AppConfigs: d.cfg.AppConfigs, Subtopology: g.ID, Partition: -1,
			DefaultKeySerde: d.cfg.DefaultKeySerde, DefaultValueSerde: d.cfg.DefaultValueSerde,
			Stores: map[string]kstreams.StateStore{g.Store.Name: kv}, Output: globalOutput{g.Topic},
			OnDroppedRecord: func(p, reason string) {
				d.dropped = append(d.dropped, Dropped{Task: kstreams.TaskID{Subtopology: g.ID, Partition: -1}, Processor: p, Reason: reason})
			},
			DefaultTimestampExtractor: d.cfg.TimestampExtractor,
			WallClock:                 func() time.Time { return d.now }})
		if err != nil {
			return err
		}
		if err := t.Init(); err != nil {
			return err
		}
		d.globals[g.Topic], d.globalStores[g.Store.Name] = t, kv
	}
	return nil
}

// globalOutput is the collector of a global store's task: its processor has
// no children and its store no changelog, so nothing may be sent.
type globalOutput struct{ topic string }

func (o globalOutput) Send(r kstreams.ProducerRecord) error {
	return fmt.Errorf("kstreamstest: the global store of topic %s wrote a record to %s; a global store's processor cannot forward", o.topic, r.Topic)
}

// pipeGlobal runs one record of a global topic through its store's task
// and commits the store with the record's offset, as the global thread
// does; stream tasks see the update from their next record on.
func (d *Driver) pipeGlobal(t *kstreams.Task, topic string, key, value []byte, timestamp int64, headers []kstreams.Header) error {
	partition := kstreams.DefaultPartition(key, d.cfg.Partitions)
	offset := d.nextOffset("\x00in:"+topic, partition)
	if err := t.Process(topic, partition, offset, key, value, timestamp, headers); err != nil {
		return err
	}
	for _, g := range d.topo.GlobalStores() {
		if g.Topic == topic {
			tp := state.TopicPartition{Topic: topic, Partition: partition}
			if err := d.globalStores[g.Store.Name].Commit(map[state.TopicPartition]*int64{tp: state.Offset(offset)}); err != nil {
				return fmt.Errorf("kstreamstest: committing global store %s: %w", g.Store.Name, err)
			}
		}
	}
	return nil
}

// GlobalStore returns the store of a global table or global store by name,
// for inspection.
func (d *Driver) GlobalStore(name string) (state.KeyValueStore, bool) {
	s, ok := d.globalStores[name]
	return s, ok
}

// Pipe writes one record to a source topic and processes it, and whatever
// it sends through repartition topics, to the end. A record of a global
// topic updates its global store.
func (d *Driver) Pipe(topic string, key, value []byte, timestamp int64, headers ...kstreams.Header) error {
	if t, ok := d.globals[topic]; ok {
		return d.pipeGlobal(t, topic, key, value, timestamp, headers)
	}
	if _, ok, err := d.sources.Subtopology(topic); err != nil {
		return err
	} else if !ok || d.sources.Internal(topic) {
		return fmt.Errorf("kstreamstest: %s is not a source topic of the topology", topic)
	}
	partition := kstreams.DefaultPartition(key, d.cfg.Partitions)
	d.queue = append(d.queue, Record{Topic: topic, Partition: partition, Offset: d.nextOffset("\x00in:"+topic, partition),
		Key: key, Value: value, Timestamp: timestamp, Headers: headers})
	return d.drain()
}

// drain processes the queued records, and what they send through repartition
// topics, to the end; then commits the stores.
func (d *Driver) drain() error {
	for len(d.queue) > 0 {
		r := d.queue[0]
		d.queue = d.queue[1:]
		sub, _, err := d.sources.Subtopology(r.Topic)
		if err != nil {
			d.queue = nil
			return err
		}
		t, err := d.task(sub, r.Partition)
		if err != nil {
			d.queue = nil
			return err
		}
		if err := t.Process(r.Topic, r.Partition, r.Offset, r.Key, r.Value, r.Timestamp, r.Headers); err != nil {
			d.queue = nil
			return err
		}
		if _, err := t.PunctuateStreamTime(); err != nil {
			d.queue = nil
			return err
		}
		if err := t.Flush(); err != nil {
			d.queue = nil
			return err
		}
	}
	return d.commit()
}

// commit commits every store with the offset of its last changelog record,
// as the runtime does after a Kafka commit, so that later reads go through
// the stores' committed data.
func (d *Driver) commit() error {
	for id, stores := range d.stores {
		for name, s := range stores {
			st, ok := s.(interface {
				Commit(map[state.TopicPartition]*int64) error
			})
			if !ok {
				st, ok = unwrap(s)
			}
			if !ok {
				continue
			}
			offsets := map[state.TopicPartition]*int64{}
			topic := kstreams.ChangelogTopic(d.cfg.ApplicationID, name)
			if next, ok := d.offsets[topic][id.Partition]; ok && next > 0 {
				offsets[state.TopicPartition{Topic: topic, Partition: id.Partition}] = state.Offset(next - 1)
			}
			if err := st.Commit(offsets); err != nil {
				return fmt.Errorf("kstreamstest: committing store %s of task %s: %w", name, id, err)
			}
		}
	}
	return nil
}

func unwrap(s kstreams.StateStore) (interface {
	Commit(map[state.TopicPartition]*int64) error
}, bool) {
	if w, ok := s.(interface{ Unwrap() state.Store }); ok {
		return w.Unwrap(), true
	}
	return nil, false
}

// Topics returns the topics records were written to, sorted.
func (d *Driver) Topics() []string {
	out := make([]string, 0, len(d.records))
	for t := range d.records {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// AdvanceWallClock moves the driver's wall clock and runs the wall-clock
// punctuations that became due, like TopologyTestDriver.advanceWallClockTime.
func (d *Driver) AdvanceWallClock(by time.Duration) error {
	d.now = d.now.Add(by)
	ids := slices.SortedFunc(maps.Keys(d.tasks), func(a, b kstreams.TaskID) int {
		if a.Subtopology != b.Subtopology {
			return a.Subtopology - b.Subtopology
		}
		return int(a.Partition - b.Partition)
	})
	for _, id := range ids {
		t := d.tasks[id]
		if _, err := t.PunctuateWallClock(d.now); err != nil {
			return err
		}
		if err := t.Flush(); err != nil {
			return err
		}
	}
	return d.drain()
}

// Records returns every record written to topic (a sink, repartition or
// changelog topic, by broker name), in write order.
func (d *Driver) Records(topic string) []Record { return slices.Clone(d.records[topic]) }

// ReadOutput returns the records written to topic since the last ReadOutput
// of it, like TestOutputTopic.readRecordsToList.
func (d *Driver) ReadOutput(topic string) []Record {
	all := d.records[topic]
	out := slices.Clone(all[d.read[topic]:])
	d.read[topic] = len(all)
	return out
}

// Changelog returns the records written to store's changelog topic.
func (d *Driver) Changelog(store string) []Record {
	return d.Records(kstreams.ChangelogTopic(d.cfg.ApplicationID, store))
}

// Dropped returns the records processors skipped and the input records
// dropped for a negative extracted timestamp, in order.
func (d *Driver) Dropped() []Dropped { return slices.Clone(d.dropped) }

// Task returns a running task, if a record has reached it.
func (d *Driver) Task(id kstreams.TaskID) (*kstreams.Task, bool) {
	t, ok := d.tasks[id]
	return t, ok
}

// Close closes every task and store.
func (d *Driver) Close() error {
	var first error
	for id, t := range d.tasks {
		if err := t.Close(); err != nil && first == nil {
			first = err
		}
		for _, s := range d.stores[id] {
			if c, ok := s.(interface{ Close() error }); ok {
				if err := c.Close(); err != nil && first == nil {
					first = err
				}
			}
		}
	}
	d.tasks = map[kstreams.TaskID]*kstreams.Task{}
	for topic, t := range d.globals {
		if err := t.Close(); err != nil && first == nil {
			first = err
		}
		delete(d.globals, topic)
	}
	for name, s := range d.globalStores {
		if err := s.Close(); err != nil && first == nil {
			first = err
		}
		delete(d.globalStores, name)
	}
	return first
}

// InputTopic pipes typed records into a source topic.
type InputTopic[K, V any] struct {
	d     *Driver
	topic string
	key   serde.Serde[K]
	val   serde.Serde[V]
}

// NewInputTopic returns a typed writer for a source topic.
func NewInputTopic[K, V any](d *Driver, topic string, k serde.Serde[K], v serde.Serde[V]) *InputTopic[K, V] {
	return &InputTopic[K, V]{d: d, topic: topic, key: k, val: v}
}

// Pipe serializes and pipes one record.
func (in *InputTopic[K, V]) Pipe(key K, value V, timestamp int64) error {
	kb, err := in.key.Serialize(in.topic, key)
	if err != nil {
		return err
	}
	vb, err := in.val.Serialize(in.topic, value)
	if err != nil {
		return err
	}
	return in.d.Pipe(in.topic, kb, vb, timestamp)
}

// PipeNullValue pipes a record with a null value (a tombstone).
func (in *InputTopic[K, V]) PipeNullValue(key K, timestamp int64) error {
	kb, err := in.key.Serialize(in.topic, key)
	if err != nil {
		return err
	}
	return in.d.Pipe(in.topic, kb, nil, timestamp)
}

// TestRecord is a typed output record. KeyNull and ValueNull tell a null
// key or value from a zero one.
type TestRecord[K, V any] struct {
	Key       K
	Value     V
	KeyNull   bool
	ValueNull bool
	Timestamp int64
	Partition int32
}

// ReadOutput reads and deserializes the records written to topic since the
// last read.
func ReadOutput[K, V any](d *Driver, topic string, k serde.Serde[K], v serde.Serde[V]) ([]TestRecord[K, V], error) {
	var out []TestRecord[K, V]
	for _, r := range d.ReadOutput(topic) {
		var tr TestRecord[K, V]
		var err error
		if r.Key == nil {
			tr.KeyNull = true
		} else if tr.Key, err = k.Deserialize(topic, r.Key); err != nil {
			return nil, err
		}
		if r.Value == nil {
			tr.ValueNull = true
		} else if tr.Value, err = v.Deserialize(topic, r.Value); err != nil {
			return nil, err
		}
		tr.Timestamp, tr.Partition = r.Timestamp, r.Partition
		out = append(out, tr)
	}
	return out, nil
}

// The state package's key-value stores back the DSL's key-value stores as they are.
var _ kstreams.KeyValueBytesStore = state.KeyValueStore(nil)
