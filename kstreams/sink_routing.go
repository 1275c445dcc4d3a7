package kstreams

import (
	"fmt"
	"io"
	"os"
	"slices"
	"sync"

	"github.com/stoatflow/stoatflow/kstreams/serde"
)

const (
	prefixRepartition = "KSTREAM-REPARTITION-"
	prefixPrinter     = "KSTREAM-PRINTER-"
)

// StreamPartitioner chooses the partitions of a record written to topic,
// which has numPartitions partitions: Kafka's StreamPartitioner.partitions.
// ok false leaves the record to the default partitioner (the key's hash);
// an empty list drops the record (counted as dropped); several partitions
// send a copy to each (multicast), in ascending order. Like a key function
// it runs for every record: a null key or value that K or V cannot hold
// reaches it as the zero value, and the record stays null.
type StreamPartitioner[K, V any] func(topic string, key K, value V, numPartitions int) (partitions []int32, ok bool)

// untyped erases p for the sink node; view is the stream's Nullable view.
func (p StreamPartitioner[K, V]) untyped(view *valueView) partitionerFunc {
	if p == nil {
		return nil
	}
	return func(topic string, k, v any, n int) ([]int32, bool) {
		return p(topic, as[K](k), as[V](view.boxed(v)), n)
	}
}

type partitionerFunc func(topic string, k, v any, n int) ([]int32, bool)

// PartitionCounter is implemented by a RecordCollector that knows the
// partition counts of the topics it writes; sinks with a StreamPartitioner
// need it.
type PartitionCounter interface {
	Partitions(topic string) (int, error)
}

// RecordContext is what a TopicNameExtractor knows of the input record
// being processed: Kafka's RecordContext.
type RecordContext struct {
	Topic     string
	Partition int32
	Offset    int64
	Timestamp int64
	Headers   []Header
}

// TopicNameExtractor picks the topic of each record: Kafka's
// TopicNameExtractor. The topics must exist; Kafka Streams creates none of
// them. Name is what describe() shows as the extractor (Kafka prints the
// extractor object, so a JVM twin gives its class a toString returning the
// same name). Like a key function it runs for every record: a null key or
// value that K or V cannot hold reaches it as the zero value.
type TopicNameExtractor[K, V any] struct {
	Name    string
	Extract func(key K, value V, rc RecordContext) string
}

// ToDynamic writes each record to the topic e picks: KStream.to with a
// TopicNameExtractor.
func (s *KStream[K, V]) ToDynamic(e TopicNameExtractor[K, V], p ...Produced[K, V]) {
	var pr Produced[K, V]
	if len(p) > 0 {
		pr = p[0]
	}
	if e.Extract == nil {
		s.b.fail(invalidTopology("topic extractor can't be null"))
		return
	}
	name := s.b.orGenerate(pr.Name, prefixSink)
	extract, view := e.Extract, s.view
	s.b.addNode(&nodeSpec{name: name, kind: SinkNode, preds: []string{s.name}, extractorName: e.Name,
		topicFn: func(k, v any, rc RecordContext) string { return extract(as[K](k), as[V](view.boxed(v)), rc) },
		key:     orSpec(pr.KeySerde, s.key), val: viewSpec(s.view, pr.ValueSerde, s.val), partitioner: pr.Partitioner.untyped(s.view)})
}

// Repartitioned configures KStream.repartition: Kafka's Repartitioned. Name
// names the topic <name>-repartition and its sink, filter and source;
// NumberOfPartitions 0 takes the upstream sub-topology's task count.
type Repartitioned[K, V any] struct {
	Name               string
	NumberOfPartitions int
	KeySerde           serde.Serde[K]
	ValueSerde         serde.Serde[V]
	Partitioner        StreamPartitioner[K, V]
}

// Repartition writes the stream through a repartition topic and reads it
// back: KStream.repartition, a topic KSTREAM-REPARTITION-N-repartition (or
// <name>-repartition) that is never merged with another. As before every
// repartition topic, a filter drops records with a null key.
func (s *KStream[K, V]) Repartition(r ...Repartitioned[K, V]) *KStream[K, V] {
	var rp Repartitioned[K, V]
	if len(r) > 0 {
		rp = r[0]
	}
	s.b.fail(validateName(rp.Name))
	if rp.NumberOfPartitions < 0 {
		s.b.fail(errIllegalArgument("Number of partitions must be greater than zero."))
	}
	base := rp.Name
	if base == "" {
		base = s.b.newProcessorName(prefixRepartition)
		s.b.unnamedRepartition(base)
	}
	key, val := orSpec(rp.KeySerde, s.key), viewSpec(s.view, rp.ValueSerde, s.val)
	source := addRepartition(s.b, s.name, base, key, val).source
	topic := base + repartitionSuffix
	s.b.topo.repartition[topic].partitions = rp.NumberOfPartitions
	if rp.Partitioner != nil {
		s.b.topo.byName[s.b.lastSink(topic)].partitioner = rp.Partitioner.untyped(s.view)
	}
	return &KStream[K, V]{b: s.b, name: source, key: key, val: val, view: s.view}
}

// lastSink is the sink writing topic, the one createRepartition just added.
func (b *StreamsBuilder) lastSink(topic string) string {
	for i := len(b.topo.nodes) - 1; i >= 0; i-- {
		if n := b.topo.nodes[i]; n.kind == SinkNode && n.topic == topic {
			return n.name
		}
	}
	return ""
}

// Printed configures KStream.print: Kafka's Printed. ToFile "" prints to
// standard output; Label defaults to the processor's name; Mapper, if set,
// formats each record (default "key, value").
type Printed[K, V any] struct {
	ToFile string
	Label  string
	Name   string
	Mapper func(K, V) string
}

// Print writes each record as "[label]: key, value" to standard output or a
// file: KStream.print, a KSTREAM-PRINTER processor. A null key or value
// prints as null. The tasks of the application share the file, created
// (truncated) when the first of them starts and closed when the last stops.
func (s *KStream[K, V]) Print(p Printed[K, V]) {
	name := s.b.orGenerate(p.Name, prefixPrinter)
	label := p.Label
	if label == "" {
		label = name
	}
	view := s.view
	format := func(k, v any) string {
		if p.Mapper != nil {
			return p.Mapper(as[K](k), as[V](v))
		}
		return javaString(k) + ", " + javaString(view.boxed(v))
	}
	sink := &printSink{file: p.ToFile}
	s.b.addNode(&nodeSpec{name: name, kind: ProcessorNode, preds: []string{s.name}, supplier: func() Processor {
		return &printer{label: label, format: format, sink: sink}
	}})
}

// javaString formats a record key or value as Java's String.valueOf would
// for the types a Go topology uses: null for nil, the pointed-to value for
// a pointer to a string.
func javaString(v any) string {
	v = nullable(v)
	if v == nil {
		return "null"
	}
	switch x := v.(type) {
	case *string:
		return *x
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

// printSink is the output one Print node's tasks share.
type printSink struct {
	file string

	mu      sync.Mutex
	users   int
	created bool
	out     io.Writer
	f       *os.File
}

func (s *printSink) open() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users++
	if s.out != nil {
		return nil
	}
	if s.file == "" {
		s.out = os.Stdout
		return nil
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	if !s.created {
		flags |= os.O_TRUNC
	}
	f, err := os.OpenFile(s.file, flags, 0o644)
	if err != nil {
		s.users--
		return fmt.Errorf("kstreams: print to %s: %w", s.file, err)
	}
	s.created, s.f, s.out = true, f, f
	return nil
}

func (s *printSink) write(line string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := io.WriteString(s.out, line)
	return err
}

func (s *printSink) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users--
	if s.users > 0 || s.f == nil {
		return nil
	}
	f := s.f
	s.f, s.out = nil, nil
	return f.Close()
}

type printer struct {
	label  string
	format func(k, v any) string
	sink   *printSink
}

func (p *printer) Init(ProcessorContext) error { return p.sink.open() }

func (p *printer) Process(r Record) error {
	return p.sink.write("[" + p.label + "]: " + p.format(r.Key, r.Value) + "\n")
}

func (p *printer) Close() error { return p.sink.close() }

// sendWithPartitioner writes one sink record through its partitioner.
func (n *taskNode) sendWithPartitioner(topic string, r Record, pr ProducerRecord) error {
	pc, ok := n.task.out.(PartitionCounter)
	if !ok {
		return fmt.Errorf("kstreams: %s: its StreamPartitioner needs partition counts, which the record collector cannot give", n.spec.name)
	}
	count, err := pc.Partitions(topic)
	if err != nil {
		return fmt.Errorf("kstreams: Could not get partition information for topic %s for task %s. This can happen if the topic does not exist: %w",
			topic, n.task.id, err)
	}
	parts, chosen := n.spec.partitioner(topic, r.Key, r.Value, count)
	if !chosen {
		return n.task.out.Send(pr)
	}
	parts = slices.Clone(parts)
	slices.Sort(parts)
	parts = slices.Compact(parts)
	if n.spec.singlePartition && len(parts) != 1 {
		// Kafka Streams' IllegalArgumentException, word for word.
		return fmt.Errorf("kstreams: %s: The partitions returned by StreamPartitioner#partitions method when used for FK join should be a singleton set", n.spec.name)
	}
	if len(parts) == 0 {
		nodeContext{n}.RecordDropped("Skipping record as partitioner returned empty partitions.")
		return nil
	}
	for _, p := range parts {
		if p < 0 || int(p) >= count {
			return fmt.Errorf("kstreams: %s: partitioner chose partition %d of topic %s, which has %d", n.spec.name, p, topic, count)
		}
		pr.Partition = p
		if err := n.task.out.Send(pr); err != nil {
			return err
		}
	}
	return nil
}
