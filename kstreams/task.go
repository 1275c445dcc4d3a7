package kstreams

import (
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// ProducerRecord is one record a task writes.
type ProducerRecord struct {
	// Topic is the broker name (internal topics decorated).
	Topic string
	// Partition is fixed for changelog records (the task's partition) and -1
	// for sink records: the collector picks it with Kafka's default
	// partitioner, DefaultPartition(PartitionKey, partitions).
	Partition int32
	// PartitionKey is what the partitioner hashes: the key bytes, or for a
	// windowed key the key without its window (WindowedStreamPartitioner).
	PartitionKey []byte
	Key, Value   []byte
	Timestamp    int64
	Headers      []Header
}

// RecordCollector receives what a task writes: records for sink topics and
// changelog records. Byte slices are not reused by the task after Send.
type RecordCollector interface {
	Send(r ProducerRecord) error
}

// TaskConfig configures one task of a sub-topology.
type TaskConfig struct {
	ApplicationID string
	// AppConfigs is what the processors' AppConfigs gives
	// (compat.Config.AppConfigs); the task keeps the map and never writes it.
	AppConfigs  map[string]string
	Subtopology int
	Partition   int32
	// DefaultKeySerde and DefaultValueSerde stand in wherever the topology
	// gave no serde (default.key.serde / default.value.serde).
	DefaultKeySerde, DefaultValueSerde serde.Untyped
	// Stores holds a byte store for every store of the sub-topology: a
	// KeyValueBytesStore, WindowBytesStore or SessionBytesStore as its
	// StoreSpec.Kind says.
	Stores map[string]StateStore
	// GlobalStores holds the byte stores through which the task's
	// processors read the topology's global stores by name (see
	// GlobalKeyValueBytes); a stream task never writes them.
	GlobalStores map[string]StateStore
	// Output receives sink and changelog records.
	Output RecordCollector
	// OnDroppedRecord, if set, is called for every record a processor skips,
	// and for every input record a source drops because its extracted
	// timestamp is negative (reason DroppedNegativeTimestamp).
	OnDroppedRecord func(processor, reason string)
	// DefaultTimestampExtractor gives timestamps to the records of every
	// source whose Consumed names no extractor (default.timestamp.extractor);
	// FailOnInvalidTimestamp if nil.
	DefaultTimestampExtractor TimestampExtractor
	// Logger receives the warnings of the task (records dropped for a
	// negative timestamp); nothing is logged if nil.
	Logger *slog.Logger
	// WallClock reads the wall clock for wall-clock punctuations; time.Now
	// if nil.
	WallClock func() time.Time
	// CacheMaxBytes is this task's share of statestore.cache.max.bytes.
	// Above zero, the stores that ask for caching (Materialized caching, on
	// by default) keep updates in a record cache: they are forwarded and
	// changelogged once per key at Flush (or when the budget evicts them),
	// not at every write. Zero forwards every update as it happens.
	CacheMaxBytes int64
	// OuterJoinEmitIntervalMs throttles the scans of a stream-stream left or
	// outer join's shared store to one per interval of wall-clock time:
	// Kafka Streams' internal
	// __emit.interval.ms.kstreams.outer.join.spurious.results.fix__ (1000
	// there by default). Zero scans at every record that moves stream time,
	// so that what is emitted depends on the input alone.
	OuterJoinEmitIntervalMs int64
	// WindowedAggregationEmitIntervalMs throttles the final results of a
	// windowed aggregation with EmitOnWindowClose to one emission per
	// interval of wall-clock time: Kafka Streams' internal
	// __emit.interval.ms.kstreams.windowed.aggregation__ (1000 there by
	// default). Zero emits at every record that closes a window.
	WindowedAggregationEmitIntervalMs int64
	// ProductionExceptionHandler answers a sink record whose key or value
	// serde fails (HandleSerializationError). Nil fails the record, as
	// Kafka's default handler does.
	ProductionExceptionHandler ProductionExceptionHandler
	// ProcessorMetadata is what the task's processors last committed
	// (Kafka Streams' ProcessorMetadata, kept in the metadata of the
	// task's committed offsets): per key, the largest value any of the
	// task's input partitions holds. A windowed aggregation with
	// EmitOnWindowClose keeps the close time of its last emission there,
	// under its store's name.
	ProcessorMetadata map[string]int64
}

// Task runs the processors of one sub-topology for one partition,
// synchronously: Process returns when the record and everything it caused
// have gone through. A task is not safe for concurrent use.
type Task struct {
	id         TaskID
	appID      string
	appConfigs map[string]string
	topo       *Topology
	nodes      map[string]*taskNode
	order      []*taskNode
	sources    map[string]*taskNode // decorated topic → source
	// patterns are the pattern sources: a topic one matches that sources
	// does not hold yet (created after the start) is added at its first
	// record.
	patterns   []*taskNode
	stores     map[string]StateStore
	globals    map[string]StateStore // typed views of global stores
	out        RecordCollector
	onDrop     func(string, string)
	streamTime int64
	curTs      int64
	// commitRequested is set by a processor's Commit, taken by the runtime.
	commitRequested bool
	curHeaders      []Header
	cacheBudget     *cacheBudget
	punctuations    []*punctuation
	clock           func() time.Time
	md              RecordMetadata
	hasMD           bool
	// rawKey and rawValue are the bytes of the input record being
	// processed, for the exception handlers' context.
	rawKey, rawValue []byte
	production       ProductionExceptionHandler
	dropped          int64
	partTime         map[string]int64 // decorated source topic → partition time
	log              *slog.Logger
	// outerJoinEmitInterval is TaskConfig.OuterJoinEmitIntervalMs.
	outerJoinEmitInterval int64
	// windowEmitInterval is TaskConfig.WindowedAggregationEmitIntervalMs.
	windowEmitInterval int64
	// metadata is the processors' metadata (TaskConfig.ProcessorMetadata),
	// metadataChanged whether a processor changed it since the last commit.
	metadata        map[string]int64
	metadataChanged bool
	// defKey and defVal are the application's default serdes, for the
	// processors that serialize themselves (the foreign-key join's).
	defKey, defVal serde.Untyped
}

type taskNode struct {
	task     *Task
	spec     *nodeSpec
	children []*taskNode
	proc     Processor
	key, val serde.Untyped
	topic    string // sink: broker topic name
	// extractor gives a source's records their timestamps.
	extractor TimestampExtractor
}

// NewTask instantiates the processors of one task with the given stores.
func (t *Topology) NewTask(cfg TaskConfig) (*Task, error) {
	if cfg.Subtopology < 0 || cfg.Subtopology >= len(t.groups) {
		return nil, fmt.Errorf("kstreams: no sub-topology %d", cfg.Subtopology)
	}
	task := &Task{id: TaskID{cfg.Subtopology, cfg.Partition}, appID: cfg.ApplicationID, appConfigs: cfg.AppConfigs, topo: t,
		nodes: map[string]*taskNode{}, sources: map[string]*taskNode{}, stores: map[string]StateStore{}, globals: map[string]StateStore{},
		out: cfg.Output, onDrop: cfg.OnDroppedRecord, streamTime: -1, clock: cfg.WallClock,
		partTime: map[string]int64{}, log: cfg.Logger, outerJoinEmitInterval: cfg.OuterJoinEmitIntervalMs,
		windowEmitInterval: cfg.WindowedAggregationEmitIntervalMs, metadata: maps.Clone(cfg.ProcessorMetadata),
		defKey: cfg.DefaultKeySerde, defVal: cfg.DefaultValueSerde, production: cfg.ProductionExceptionHandler}
	if task.clock == nil {
		task.clock = time.Now
	}
	if task.log == nil {
		task.log = slog.New(slog.DiscardHandler)
	}
	defaultExtractor := cfg.DefaultTimestampExtractor
	if defaultExtractor == nil {
		defaultExtractor = FailOnInvalidTimestamp{}
	}
	decorate := func(topic string) string {
		return TopicRef{Name: topic, Internal: t.repartition[topic] != nil}.Decorated(cfg.ApplicationID)
	}
	for _, name := range t.groups[cfg.Subtopology] {
		spec := t.byName[name]
		n := &taskNode{task: task, spec: spec}
		var err error
		switch spec.kind {
		case SourceNode, SinkNode:
			if n.key, err = spec.key.resolve(cfg.DefaultKeySerde); err != nil {
				return nil, fmt.Errorf("kstreams: %s key serde: %w", name, err)
			}
			if n.val, err = spec.val.resolve(cfg.DefaultValueSerde); err != nil {
				return nil, fmt.Errorf("kstreams: %s value serde: %w", name, err)
			}
			if spec.kind == SourceNode {
				n.extractor = spec.extractor
				if n.extractor == nil {
					n.extractor = defaultExtractor
				}
				for _, topic := range spec.topics {
					task.sources[decorate(topic)] = n
				}
				if spec.pattern != nil {
					task.patterns = append(task.patterns, n)
				}
			} else {
				n.topic = decorate(spec.topic)
			}
		case ProcessorNode:
			n.proc = spec.supplier()
		}
		task.nodes[name] = n
		task.order = append(task.order, n)
	}
	for _, n := range task.order {
		for _, c := range n.spec.succs {
			n.children = append(n.children, task.nodes[c])
		}
	}
	for _, s := range t.groupStores(cfg.Subtopology) {
		view, err := task.storeView(s, cfg.Stores, cfg)
		if err != nil {
			return nil, err
		}
		task.stores[s.Name] = view
	}
	for _, g := range t.globals {
		if _, own := task.stores[g.store]; own {
			continue // the global thread's task of this store
		}
		if _, ok := cfg.GlobalStores[g.store]; !ok {
			continue
		}
		view, err := task.storeView(t.stores[g.store], cfg.GlobalStores, TaskConfig{DefaultKeySerde: cfg.DefaultKeySerde,
			DefaultValueSerde: cfg.DefaultValueSerde, ApplicationID: cfg.ApplicationID})
		if err != nil {
			return nil, err
		}
		task.globals[g.store] = view
	}
	return task, nil
}

func (task *Task) storeView(s *StoreSpec, stores map[string]StateStore, cfg TaskConfig) (StateStore, error) {
	inner, ok := stores[s.Name]
	if !ok {
		return nil, fmt.Errorf("kstreams: task %s: no store %s given", task.id, s.Name)
	}
	key, err := s.key.resolve(cfg.DefaultKeySerde)
	if err != nil {
		return nil, fmt.Errorf("kstreams: store %s key serde: %w", s.Name, err)
	}
	val, err := s.val.resolve(cfg.DefaultValueSerde)
	if err != nil {
		return nil, fmt.Errorf("kstreams: store %s value serde: %w", s.Name, err)
	}
	base := storeBase{name: s.Name, key: key, val: val, topic: ChangelogTopic(cfg.ApplicationID, s.Name),
		now: func() int64 { return task.curTs }, setNow: func(ts int64) { task.curTs = ts },
		headers:   func() []Header { return task.curHeaders },
		origin:    func() (RecordMetadata, bool) { return task.md, task.hasMD },
		setOrigin: func(md RecordMetadata, ok bool) { task.md, task.hasMD = md, ok }}
	caching := s.Caching && !s.outerJoin && !s.suppressBuffer && !s.joinBuffer
	if caching && s.Kind == WindowStoreKind && s.RetainDuplicates {
		// Kafka's WindowStoreBuilder builds such a store without its
		// caching layer, and says so.
		task.log.Warn("disabling caching since the store was configured to retain duplicates", "store", s.Name, "task", task.id.String())
		caching = false
	}
	if cfg.CacheMaxBytes > 0 && caching {
		if task.cacheBudget == nil {
			task.cacheBudget = &cacheBudget{max: cfg.CacheMaxBytes}
		}
		base.cache = newStoreCache(task.cacheBudget)
	}
	if s.Logging {
		base.log = changelogWriter{task: task, topic: base.topic}
	}
	switch s.Kind {
	case KeyValueStoreKind:
		kv, ok := inner.(KeyValueBytesStore)
		if !ok {
			return nil, fmt.Errorf("kstreams: store %s: %T is not a KeyValueBytesStore", s.Name, inner)
		}
		if s.outerJoin {
			other, err := s.otherVal.resolve(cfg.DefaultValueSerde)
			if err != nil {
				return nil, fmt.Errorf("kstreams: store %s other value serde: %w", s.Name, err)
			}
			return &outerJoinStore{storeBase: base, inner: kv, right: other}, nil
		}
		if s.suppressBuffer {
			return newSuppressBuffer(base, kv, task), nil
		}
		if s.joinBuffer {
			return newJoinBuffer(base, kv, task), nil
		}
		if !s.Timestamped {
			v := &KeyValueStore{storeBase: base, inner: kv}
			v.setupFlush(v.flushWrite)
			return v, nil
		}
		v := &TimestampedKeyValueStore{storeBase: base, inner: kv}
		v.setupFlush(v.flushWrite)
		return v, nil
	case WindowStoreKind:
		ws, ok := inner.(WindowBytesStore)
		if !ok {
			return nil, fmt.Errorf("kstreams: store %s: %T is not a WindowBytesStore", s.Name, inner)
		}
		if !s.Timestamped {
			return newWindowStore(base, ws, s), nil
		}
		v := &TimestampedWindowStore{storeBase: base, inner: ws}
		v.setupFlush(v.flushWrite)
		return v, nil
	case VersionedStoreKind:
		vs, ok := inner.(VersionedBytesStore)
		if !ok {
			return nil, fmt.Errorf("kstreams: store %s: %T is not a VersionedBytesStore", s.Name, inner)
		}
		return &VersionedKeyValueStore{storeBase: base, inner: vs}, nil
	default:
		ss, ok := inner.(SessionBytesStore)
		if !ok {
			return nil, fmt.Errorf("kstreams: store %s: %T is not a SessionBytesStore", s.Name, inner)
		}
		v := &SessionStore{storeBase: base, inner: ss}
		v.setupFlush(v.flushWrite)
		return v, nil
	}
}

type changelogWriter struct {
	task  *Task
	topic string
}

func (w changelogWriter) LogChange(_ string, key, value []byte, ts int64) error {
	return w.task.out.Send(ProducerRecord{Topic: w.topic, Partition: w.task.id.Partition, PartitionKey: key, Key: key, Value: value, Timestamp: ts})
}

func (task *Task) wallClock() int64 { return task.clock().UnixMilli() }

// ID returns the task id.
func (task *Task) ID() TaskID { return task.id }

// source is the source node reading topic (its broker name).
func (task *Task) source(topic string) (*taskNode, bool) {
	if n, ok := task.sources[topic]; ok {
		return n, true
	}
	for _, n := range task.patterns {
		if n.spec.pattern.matches(topic) {
			task.sources[topic] = n
			return n, true
		}
	}
	return nil, false
}

// SourceTopics returns the broker names of the topics the task reads.
func (task *Task) SourceTopics() []string {
	out := make([]string, 0, len(task.sources))
	for t := range task.sources {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// StreamTime is the largest timestamp the task has processed, -1 before any.
func (task *Task) StreamTime() int64 { return task.streamTime }

// ProcessorMetadata returns the processors' metadata to commit with the
// task's offsets, and whether a processor changed it since
// MetadataCommitted was last called. The map is the task's: read it before
// the task processes again.
func (task *Task) ProcessorMetadata() (map[string]int64, bool) {
	return task.metadata, task.metadataChanged
}

// MergeProcessorMetadata takes the larger value per key of md and the
// task's metadata, as Kafka Streams merges the metadata of a task's
// partitions: committed metadata read after the task was built.
func (task *Task) MergeProcessorMetadata(md map[string]int64) {
	task.metadata = MergeMetadata(task.metadata, md)
}

// MergeMetadata adds src to dst, keeping the larger value per key (Kafka
// Streams' ProcessorMetadata.update), and returns dst (allocated if nil and
// src has entries).
func MergeMetadata(dst, src map[string]int64) map[string]int64 {
	for k, v := range src {
		if old, ok := dst[k]; !ok || v > old {
			if dst == nil {
				dst = map[string]int64{}
			}
			dst[k] = v
		}
	}
	return dst
}

// MetadataCommitted says the processors' metadata has been committed.
func (task *Task) MetadataCommitted() { task.metadataChanged = false }

// processorMetadata returns the value a processor keeps under key.
func (task *Task) processorMetadata(key string) (int64, bool) {
	v, ok := task.metadata[key]
	return v, ok
}

// setProcessorMetadata keeps v under key, to be committed with the task's
// offsets.
func (task *Task) setProcessorMetadata(key string, v int64) {
	if task.metadata == nil {
		task.metadata = map[string]int64{}
	}
	task.metadata[key] = v
	task.metadataChanged = true
}

// DroppedRecords counts the records the task dropped: skipped by its
// processors or dropped for a negative extracted timestamp.
func (task *Task) DroppedRecords() int64 { return task.dropped }

// PartitionTime is the largest timestamp extracted from the records of one
// input topic (its broker name) of the task, -1 before any: Kafka's
// partition time, which the runtime commits with the offsets.
func (task *Task) PartitionTime(topic string) int64 {
	if ts, ok := task.partTime[topic]; ok {
		return ts
	}
	return -1
}

// SetPartitionTime sets the partition time of an input topic, as the
// runtime restores it from the committed offsets' metadata before the
// task processes its first record; the task's stream time moves up to it,
// as Kafka Streams' does.
func (task *Task) SetPartitionTime(topic string, ts int64) {
	task.partTime[topic] = ts
	task.streamTime = max(task.streamTime, ts)
}

// Store returns the task's view of a store (a *TimestampedKeyValueStore,
// *TimestampedWindowStore or *SessionStore).
func (task *Task) Store(name string) (StateStore, bool) {
	s, ok := task.stores[name]
	return s, ok
}

// Init initializes the processors in topological order.
func (task *Task) Init() error {
	for _, n := range task.order {
		if n.proc != nil {
			if err := n.initProcessor(); err != nil {
				return fmt.Errorf("kstreams: task %s: init %s: %w", task.id, n.spec.name, err)
			}
		}
	}
	return nil
}

// TakeCommitRequest reports whether a processor asked for a commit since
// the last call, and clears the request.
func (task *Task) TakeCommitRequest() bool {
	r := task.commitRequested
	task.commitRequested = false
	return r
}

// Flush writes the cached updates of every caching store to the store and
// its changelog and forwards them downstream, store by store in creation
// order; the runtime calls it before each commit. Without caching it does
// nothing.
func (task *Task) Flush() error {
	prev, prevHeaders := task.curTs, task.curHeaders
	defer func() { task.curTs, task.curHeaders = prev, prevHeaders }()
	for _, s := range task.topo.groupStores(task.id.Subtopology) {
		f, ok := task.stores[s.Name].(interface{ Flush() error })
		if !ok {
			continue
		}
		if err := f.Flush(); err != nil {
			return fmt.Errorf("kstreams: task %s: flushing store %s: %w", task.id, s.Name, err)
		}
	}
	return nil
}

// Close closes the processors.
func (task *Task) Close() error {
	var first error
	for _, n := range task.order {
		if n.proc != nil {
			if err := n.proc.Close(); err != nil && first == nil {
				first = err
			}
		}
	}
	return first
}

// ProcessError is a failure while processing one input record.
type ProcessError struct {
	Task      TaskID
	Topic     string
	Partition int32
	Offset    int64
	Node      string
	Err       error
}

// Error describes the failure with the record's position.
func (e *ProcessError) Error() string {
	return fmt.Sprintf("kstreams: task %s: processing %s-%d@%d at %s: %v", e.Task, e.Topic, e.Partition, e.Offset, e.Node, e.Err)
}

// Unwrap returns the underlying error.
func (e *ProcessError) Unwrap() error { return e.Err }

// DeserializationError is a source's failure to turn an input record's bytes
// into its key or value: deserialization.exception.handler decides whether
// the record is skipped or stops the application.
type DeserializationError struct{ Err error }

func (e *DeserializationError) Error() string { return "deserialization failed: " + e.Err.Error() }

func (e *DeserializationError) Unwrap() error { return e.Err }

// Process deserializes one input record of topic (its broker name), gives
// it its timestamp with the source's TimestampExtractor (timestamp is the
// record's own) and runs it through the sub-topology. A record whose
// extracted timestamp is negative is dropped, counted and logged, and
// Process returns nil; an extractor's error is a *TimestampExtractionError
// inside the *ProcessError.
func (task *Task) Process(topic string, partition int32, offset int64, key, value []byte, timestamp int64, headers []Header) error {
	src, ok := task.source(topic)
	if !ok {
		return fmt.Errorf("kstreams: task %s does not read topic %s", task.id, topic)
	}
	fail := func(node string, err error) error {
		return &ProcessError{Task: task.id, Topic: topic, Partition: partition, Offset: offset, Node: node, Err: err}
	}
	k, err := src.key.DeserializeAny(topic, key)
	if err != nil {
		return fail(src.spec.name, &DeserializationError{Err: fmt.Errorf("key: %w", err)})
	}
	v, err := src.val.DeserializeAny(topic, value)
	if err != nil {
		return fail(src.spec.name, &DeserializationError{Err: fmt.Errorf("value: %w", err)})
	}
	// Kafka Streams extracts after deserializing: the extractor sees the
	// key and value, and a record the deserialization handler skips is
	// never extracted.
	in := ConsumerRecord{Topic: topic, Partition: partition, Offset: offset, Timestamp: timestamp, Key: k, Value: v, Headers: headers}
	timestamp, err = src.extractor.Extract(in, task.PartitionTime(topic))
	if err != nil {
		return fail(src.spec.name, &TimestampExtractionError{Extractor: extractorName(src.extractor), Err: err})
	}
	if timestamp < 0 {
		task.log.Warn("skipping record due to negative extracted timestamp", "task", task.id.String(), "topic", topic,
			"partition", partition, "offset", offset, "extractedTimestamp", timestamp, "extractor", extractorName(src.extractor))
		task.dropped++
		if task.onDrop != nil {
			task.onDrop(src.spec.name, DroppedNegativeTimestamp)
		}
		return nil
	}
	task.partTime[topic] = max(task.PartitionTime(topic), timestamp)
	task.streamTime = max(task.streamTime, timestamp)
	task.md, task.hasMD = RecordMetadata{Topic: topic, Partition: partition, Offset: offset}, true
	task.rawKey, task.rawValue = key, value
	defer func() { task.hasMD, task.rawKey, task.rawValue = false, nil, nil }()
	if err := src.process(Record{Key: k, Value: v, Timestamp: timestamp, Headers: headers}); err != nil {
		return fail(src.spec.name, err)
	}
	return nil
}

// PeekTimestamp returns the timestamp Process would give the record now,
// without processing it or counting anything, so that a runtime can pick
// among a task's input partitions the one whose next record has the
// smallest extracted timestamp, as Kafka Streams does. The built-in
// metadata extractors cost nothing on a valid timestamp; otherwise the
// record is deserialized for the extractor. A record that Process would
// fail on or drop gets its own timestamp, or the negative extracted one.
func (task *Task) PeekTimestamp(topic string, partition int32, offset int64, key, value []byte, timestamp int64, headers []Header) int64 {
	src, ok := task.source(topic)
	if !ok {
		return timestamp
	}
	switch src.extractor.(type) {
	case FailOnInvalidTimestamp, LogAndSkipOnInvalidTimestamp, UsePartitionTimeOnInvalidTimestamp:
		if timestamp >= 0 {
			return timestamp
		}
	}
	k, err := src.key.DeserializeAny(topic, key)
	if err != nil {
		return timestamp
	}
	v, err := src.val.DeserializeAny(topic, value)
	if err != nil {
		return timestamp
	}
	in := ConsumerRecord{Topic: topic, Partition: partition, Offset: offset, Timestamp: timestamp, Key: k, Value: v, Headers: headers}
	ts, err := src.extractor.Extract(in, task.PartitionTime(topic))
	if err != nil {
		return timestamp
	}
	return ts
}

func (n *taskNode) process(r Record) error {
	task := n.task
	prev, prevHeaders := task.curTs, task.curHeaders
	task.curTs, task.curHeaders = r.Timestamp, r.Headers
	defer func() { task.curTs, task.curHeaders = prev, prevHeaders }()
	switch n.spec.kind {
	case SourceNode:
		return nodeContext{n}.Forward(r)
	case SinkNode:
		topic := n.topic
		if n.spec.topicFn != nil {
			rc := RecordContext{Timestamp: r.Timestamp, Headers: r.Headers, Offset: -1, Partition: -1}
			if task.hasMD {
				rc.Topic, rc.Partition, rc.Offset = task.md.Topic, task.md.Partition, task.md.Offset
			}
			if topic = n.spec.topicFn(r.Key, r.Value, rc); topic == "" {
				return fmt.Errorf("%s: the topic name extractor %s gave no topic", n.spec.name, n.spec.extractorName)
			}
		}
		kb, err := n.key.SerializeAny(topic, r.Key)
		if err != nil {
			return n.unserializable(topic, r, SerializationKey, err)
		}
		vb, err := n.val.SerializeAny(topic, r.Value)
		if err != nil {
			return n.unserializable(topic, r, SerializationValue, err)
		}
		pk := kb
		if bk, ok, err := serde.BaseKey(n.key, topic, r.Key); err != nil {
			return fmt.Errorf("%s: key: %w", n.spec.name, err)
		} else if ok {
			pk = bk
		}
		pr := ProducerRecord{Topic: topic, Partition: -1, PartitionKey: pk, Key: kb, Value: vb, Timestamp: r.Timestamp, Headers: r.Headers}
		if n.spec.partition != nil { // a sink that places its records itself (the foreign-key join's response)
			if p, ok := n.spec.partition(r); ok {
				pr.Partition = p
			}
		}
		if n.spec.partitioner != nil {
			return n.sendWithPartitioner(topic, r, pr)
		}
		return task.out.Send(pr)
	}
	return n.runProcessor(r)
}

// ErrValueType is returned when a record's key or value has another Go type
// than the operation expects, which happens when a default serde (or a
// serde of another type) feeds a typed operation.
var ErrValueType = errors.New("kstreams: record of an unexpected type")

// PanicError is a panic of a processor's own code (a Processor's Process, a
// DSL operator's function, a punctuator), turned into the error of the record
// it was processing, as Kafka Streams turns a processor's exception into a
// processing error: processing.exception.handler decides whether the record
// is skipped or the application stops. It is never ErrValueType: that is the
// typed API's conversion failing before the user's function ran.
type PanicError struct {
	// Processor is the node whose code panicked.
	Processor string
	// Value is what was passed to panic.
	Value any
	// Func and Line name where the panic happened ("pkg.Func",
	// "file.go:42"); empty when the stack did not tell.
	Func, Line string
	// Stack is the goroutine's stack at the panic.
	Stack []byte
}

// Error names the processor, the panic value and where it happened; Stack
// holds the rest.
func (e *PanicError) Error() string {
	at := ""
	if e.Func != "" {
		at = fmt.Sprintf(" in %s (%s)", e.Func, e.Line)
	}
	return fmt.Sprintf("kstreams: processor %s panicked%s: %v", e.Processor, at, e.Value)
}

// Unwrap returns the panic value when it is an error (panic(err)).
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// recovered turns a processor's panic into its error: a failed type
// assertion inside this package is the typed API meeting a value of another
// type (ErrValueType); anything else is the processor's own panic.
func (n *taskNode) recovered(p any) error {
	fn, line, ours := panicSite()
	if te, ok := p.(*runtime.TypeAssertionError); ok && ours {
		return fmt.Errorf("%s: %w: %v; check the serdes, a default serde yields values of its own type", n.spec.name, ErrValueType, te)
	}
	return &PanicError{Processor: n.spec.name, Value: p, Func: fn, Line: line, Stack: debug.Stack()}
}

// panicSite finds the function that panicked: the first frame below the
// runtime's panic machinery, read from the deferred call that recovers (the
// panicking frames are still on the stack then). ours reports whether it
// is this package's code, not the user's.
func panicSite() (fn, line string, ours bool) {
	var pcs [32]uintptr
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs[:])])
	inPanic := false
	for {
		f, more := frames.Next()
		switch {
		case f.Function == "runtime.gopanic":
			inPanic = true
		case inPanic && !strings.HasPrefix(f.Function, "runtime."):
			const pkg = "github.com/stoatflow/stoatflow/kstreams."
			return f.Function, fmt.Sprintf("%s:%d", filepath.Base(f.File), f.Line), strings.HasPrefix(f.Function, pkg)
		}
		if !more {
			return "", "", false
		}
	}
}

// initProcessor initializes a node's processor, turning a panic into its
// error.
func (n *taskNode) initProcessor() (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = n.recovered(p)
		}
	}()
	return n.proc.Init(nodeContext{n})
}

// runProcessor runs a node's processor, turning a panic into the record's
// error, so neither a serde mismatch nor a bug in the processor stops the
// thread without the record that caused it being named.
func (n *taskNode) runProcessor(r Record) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = n.recovered(p)
		}
	}()
	if err := n.proc.Process(r); err != nil {
		return fmt.Errorf("%s: %w", n.spec.name, err)
	}
	return nil
}

// nodeContext is the ProcessorContext of one node.
type nodeContext struct{ n *taskNode }

func (c nodeContext) Forward(r Record) error {
	for _, child := range c.n.children {
		if err := child.process(r); err != nil {
			return err
		}
	}
	return nil
}

func (c nodeContext) ForwardTo(child string, r Record) error {
	for _, n := range c.n.children {
		if n.spec.name == child {
			return n.process(r)
		}
	}
	return fmt.Errorf("kstreams: %s has no child %s", c.n.spec.name, child)
}

func (c nodeContext) StateStore(name string) (StateStore, error) {
	if !slices.Contains(c.n.spec.stores, name) {
		if g, ok := c.n.task.globals[name]; ok {
			return g, nil // global stores need no connecting, as in Kafka Streams
		}
		return nil, fmt.Errorf("%w: processor %s has no access to store %s", ErrStoreNotConnected, c.n.spec.name, name)
	}
	return c.n.task.stores[name], nil
}

func (c nodeContext) RecordMetadata() (RecordMetadata, bool) { return c.n.task.md, c.n.task.hasMD }
func (c nodeContext) StreamTime() int64                      { return c.n.task.streamTime }
func (c nodeContext) TaskID() TaskID                         { return c.n.task.id }
func (c nodeContext) ApplicationID() string                  { return c.n.task.appID }
func (c nodeContext) AppConfigs() map[string]string          { return maps.Clone(c.n.task.appConfigs) }

func (c nodeContext) AppConfigsWithPrefix(prefix string) map[string]string {
	m := map[string]string{}
	for k, v := range c.n.task.appConfigs {
		if rest, ok := strings.CutPrefix(k, prefix); ok {
			m[rest] = v
		}
	}
	return m
}

// defaultSerdes are the application's default key and value serdes (nil
// where none is configured).
func (c nodeContext) defaultSerdes() (key, value serde.Untyped) {
	return c.n.task.defKey, c.n.task.defVal
}

func (c nodeContext) Commit() { c.n.task.commitRequested = true }

func (c nodeContext) RecordDropped(reason string) {
	c.n.task.dropped++
	if c.n.task.onDrop != nil {
		c.n.task.onDrop(c.n.spec.name, reason)
	}
}
