package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/linxGnu/grocksdb"

	"github.com/stoatflow/stoatflow/integration"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
	"github.com/stoatflow/stoatflow/txn"
)

// envChild, when set, makes the binary (the bench command or its test
// binary) run one child instead: a StoatFlow application, a raw client
// loop or a raw RocksDB restore, described by the JSON in the variable.
const envChild = "STOATFLOW_BENCH_CHILD"

// envCPUProfile, when set in a StoatFlow child, names the file it writes
// a CPU profile of its whole run to.
const envCPUProfile = "STOATFLOW_BENCH_CPUPROFILE"

// childSpec is what a child runs.
type childSpec struct {
	Mode string `json:"mode"` // "stoatflow", "loop" or "rawrestore"

	// stoatflow
	Topology string            `json:"topology,omitempty"`
	Args     map[string]string `json:"args,omitempty"`
	Files    []string          `json:"files,omitempty"`
	Set      map[string]string `json:"set,omitempty"`

	// loop and rawrestore
	Bootstrap     string `json:"bootstrap,omitempty"`
	Group         string `json:"group,omitempty"`
	Input         string `json:"input,omitempty"`
	Output        string `json:"output,omitempty"`
	Transactional bool   `json:"transactional,omitempty"`
	CommitMs      int    `json:"commit_ms,omitempty"`
	Dir           string `json:"dir,omitempty"`
}

func runChild(raw string) int {
	var spec childSpec
	if err := json.Unmarshal([]byte(raw), &spec); err != nil {
		fmt.Fprintln(os.Stderr, "bench child:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	var err error
	switch spec.Mode {
	case "stoatflow":
		err = runStoatFlow(ctx, spec)
	case "loop":
		err = runLoop(ctx, spec)
	case "rawrestore":
		err = runRawRestore(ctx, spec)
	default:
		err = fmt.Errorf("unknown mode %q", spec.Mode)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench child:", err)
		return 1
	}
	return 0
}

// phaseHooks records every commit's phases and prints restore progress as
// protocol lines with the child's own clock (unix nanoseconds).
type phaseHooks struct {
	streams.NoHooks
	mu      sync.Mutex
	commits []txn.CommitStats
	failed  int
}

func (h *phaseHooks) OnCommit(_ int, s txn.CommitStats, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err != nil {
		h.failed++
		return
	}
	if len(h.commits) < 1<<20 {
		h.commits = append(h.commits, s)
	}
}

func (h *phaseHooks) OnRestoreStart(store string, tp state.TopicPartition, start, end int64, full bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	fmt.Printf("RESTORE-START %d %s %s %d %d %v\n", time.Now().UnixNano(), store, tp, start, end, full)
}

func (h *phaseHooks) OnRestoreEnd(store string, tp state.TopicPartition, total int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	fmt.Printf("RESTORE-END %d %s %s %d\n", time.Now().UnixNano(), store, tp, total)
}

// report prints COMMITS <n> <failed> then p50 and p99 of flush, Kafka
// commit and store commit, in microseconds.
func (h *phaseHooks) report() {
	h.mu.Lock()
	defer h.mu.Unlock()
	q := func(get func(txn.CommitStats) time.Duration) (int64, int64) {
		if len(h.commits) == 0 {
			return 0, 0
		}
		d := make([]time.Duration, len(h.commits))
		for i, c := range h.commits {
			d[i] = get(c)
		}
		slices.Sort(d)
		return d[len(d)/2].Microseconds(), d[(len(d)*99)/100].Microseconds()
	}
	f50, f99 := q(func(c txn.CommitStats) time.Duration { return c.Flush })
	k50, k99 := q(func(c txn.CommitStats) time.Duration { return c.KafkaCommit })
	s50, s99 := q(func(c txn.CommitStats) time.Duration { return c.StoreCommit })
	fmt.Printf("COMMITS %d %d %d %d %d %d %d %d\n", len(h.commits), h.failed, f50, f99, k50, k99, s50, s99)
}

func runStoatFlow(ctx context.Context, spec childSpec) error {
	if path := os.Getenv(envCPUProfile); path != "" {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	cfg, err := integration.LoadConfig(spec.Files, spec.Set)
	if err != nil {
		return err
	}
	hooks := &phaseHooks{}
	sctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	ks, err := integration.StartStoatFlow(sctx, spec.Topology, spec.Args, cfg, streams.WithHooks(hooks))
	if err != nil {
		return err
	}
	fmt.Println("RUNNING")
	select {
	case <-ctx.Done():
	case <-ks.Done():
		return fmt.Errorf("stopped: %v", ks.Err())
	}
	// How much of the process's memory the Go runtime holds; the rest of
	// the RSS is librdkafka's and RocksDB's.
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("GOMEM %d %d\n", ms.Sys-ms.HeapReleased, ms.HeapInuse)
	if path := os.Getenv(envCPUProfile); path != "" {
		// The heap as it is at the end of the run, beside the CPU profile.
		if err := writeHeapProfile(path + ".heap"); err != nil {
			return err
		}
	}
	if err := ks.Close(context.Background()); err != nil {
		return fmt.Errorf("close: %w", err)
	}
	hooks.report()
	fmt.Println("CLOSED")
	return nil
}

func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return pprof.Lookup("heap").WriteTo(f, 0)
}

// runLoop is the ceiling: a consume → produce loop on raw
// confluent-kafka-go with the clients' settings the engines use
// (read_committed, linger.ms=100, idempotence), committing every
// CommitMs: a transaction with the consumed offsets, or a flush and an
// offset commit.
func runLoop(ctx context.Context, spec childSpec) error {
	c, err := kafka.NewConsumer(&kafka.ConfigMap{
		"bootstrap.servers":             spec.Bootstrap,
		"group.id":                      spec.Group,
		"isolation.level":               "read_committed",
		"auto.offset.reset":             "earliest",
		"enable.auto.commit":            false,
		"partition.assignment.strategy": "range",
	})
	if err != nil {
		return err
	}
	defer c.Close()
	pcfg := kafka.ConfigMap{
		"bootstrap.servers":  spec.Bootstrap,
		"linger.ms":          100,
		"enable.idempotence": true,
		"partitioner":        "murmur2_random",
	}
	if spec.Transactional {
		pcfg["transactional.id"] = spec.Group + "-loop"
		pcfg["transaction.timeout.ms"] = 10000
	}
	p, err := kafka.NewProducer(&pcfg)
	if err != nil {
		return err
	}
	var deliveryErr atomic.Pointer[error]
	var drained sync.WaitGroup
	drained.Add(1)
	go func() {
		defer drained.Done()
		for ev := range p.Events() {
			if m, ok := ev.(*kafka.Message); ok && m.TopicPartition.Error != nil {
				err := m.TopicPartition.Error
				deliveryErr.CompareAndSwap(nil, &err)
			}
		}
	}()
	defer func() {
		p.Close()
		drained.Wait()
	}()
	if spec.Transactional {
		if err := p.InitTransactions(ctx); err != nil {
			return err
		}
		if err := p.BeginTransaction(); err != nil {
			return err
		}
	}
	if err := c.Subscribe(spec.Input, nil); err != nil {
		return err
	}
	fmt.Println("RUNNING")
	out := spec.Output
	next := map[int32]kafka.Offset{}
	interval := time.Duration(spec.CommitMs) * time.Millisecond
	last := time.Now()
	commit := func() error {
		if len(next) == 0 {
			return nil
		}
		offs := make([]kafka.TopicPartition, 0, len(next))
		for part, o := range next {
			offs = append(offs, kafka.TopicPartition{Topic: &spec.Input, Partition: part, Offset: o})
		}
		cctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if spec.Transactional {
			md, err := c.GetConsumerGroupMetadata()
			if err != nil {
				return err
			}
			if err := p.SendOffsetsToTransaction(cctx, offs, md); err != nil {
				return err
			}
			if err := p.CommitTransaction(cctx); err != nil {
				return err
			}
			if err := p.BeginTransaction(); err != nil {
				return err
			}
		} else {
			for p.Flush(1000) > 0 {
				if cctx.Err() != nil {
					return cctx.Err()
				}
			}
			if err := deliveryErr.Load(); err != nil {
				return *err
			}
			if _, err := c.CommitOffsets(offs); err != nil {
				return err
			}
		}
		clear(next)
		return nil
	}
	for ctx.Err() == nil {
		timeout := 100
		for n := 0; n < 1000; n++ {
			ev := c.Poll(timeout)
			if ev == nil {
				break
			}
			timeout = 0
			switch e := ev.(type) {
			case *kafka.Message:
				for {
					err := p.Produce(&kafka.Message{
						TopicPartition: kafka.TopicPartition{Topic: &out, Partition: kafka.PartitionAny},
						Key:            e.Key, Value: e.Value, Timestamp: e.Timestamp,
					}, nil)
					if err == nil {
						break
					}
					if kerr, ok := err.(kafka.Error); !ok || kerr.Code() != kafka.ErrQueueFull {
						return err
					}
					p.Flush(10)
				}
				next[e.TopicPartition.Partition] = e.TopicPartition.Offset + 1
			case kafka.Error:
				if e.IsFatal() {
					return e
				}
			}
		}
		if time.Since(last) >= interval {
			if err := commit(); err != nil {
				return err
			}
			last = time.Now()
		}
	}
	if err := commit(); err != nil {
		return err
	}
	if spec.Transactional {
		actx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = p.AbortTransaction(actx) // the open, empty transaction
	}
	fmt.Println("CLOSED")
	return nil
}

// restoreBatch matches the runtime's restore batch (kstreams/restore.go).
const restoreBatch = 4096

// runRawRestore is the restore ceiling: it reads a changelog topic from
// its beginning, read_committed, and writes it into one RocksDB per
// partition with grocksdb WriteBatches of restoreBatch records plus the
// offset, on the store's options (no WAL, atomic flush, 16 MiB memtable,
// no compression, the stores' table options).
func runRawRestore(ctx context.Context, spec childSpec) error {
	c, err := kafka.NewConsumer(&kafka.ConfigMap{
		"bootstrap.servers":    spec.Bootstrap,
		"group.id":             spec.Group,
		"isolation.level":      "read_committed",
		"enable.auto.commit":   false,
		"enable.partition.eof": true,
	})
	if err != nil {
		return err
	}
	defer c.Close()
	md, err := c.GetMetadata(&spec.Input, false, 10000)
	if err != nil {
		return err
	}
	parts := md.Topics[spec.Input].Partitions
	if len(parts) == 0 {
		return fmt.Errorf("topic %s has no partitions", spec.Input)
	}
	type db struct {
		db   *grocksdb.DB
		hs   []*grocksdb.ColumnFamilyHandle
		wb   *grocksdb.WriteBatch
		n    int
		last int64
		eof  bool
	}
	opts := grocksdb.NewDefaultOptions()
	defer opts.Destroy()
	opts.SetCreateIfMissing(true)
	opts.SetCreateIfMissingColumnFamilies(true)
	opts.SetAtomicFlush(true)
	opts.SetWriteBufferSize(state.DefaultWriteBufferBytes)
	opts.SetDbWriteBufferSize(state.DefaultWriteBufferBytes)
	opts.SetCompression(grocksdb.NoCompression)
	bbto := state.NewTableOptions()
	defer bbto.Destroy()
	opts.SetBlockBasedTableFactory(bbto)
	wo := grocksdb.NewDefaultWriteOptions()
	defer wo.Destroy()
	wo.DisableWAL(true)
	dbs := map[int32]*db{}
	var assign []kafka.TopicPartition
	for _, pm := range parts {
		path := filepath.Join(spec.Dir, fmt.Sprint(pm.ID))
		if err := os.MkdirAll(path, 0o755); err != nil {
			return err
		}
		d, hs, err := grocksdb.OpenDbColumnFamilies(opts, path,
			[]string{"default", "offsets"}, []*grocksdb.Options{opts, opts})
		if err != nil {
			return err
		}
		dbs[pm.ID] = &db{db: d, hs: hs, wb: grocksdb.NewWriteBatch(), last: -1}
		assign = append(assign, kafka.TopicPartition{Topic: &spec.Input, Partition: pm.ID, Offset: kafka.OffsetBeginning})
	}
	defer func() {
		for _, d := range dbs {
			d.wb.Destroy()
			for _, h := range d.hs {
				h.Destroy()
			}
			d.db.Close()
		}
	}()
	write := func(d *db) error {
		if d.n == 0 {
			return nil
		}
		d.wb.PutCF(d.hs[1], []byte(spec.Input), binary.BigEndian.AppendUint64(nil, uint64(d.last)))
		if err := d.db.Write(wo, d.wb); err != nil {
			return err
		}
		d.wb.Clear()
		d.n = 0
		return nil
	}
	if err := c.Assign(assign); err != nil {
		return err
	}
	fmt.Println("RUNNING")
	start := time.Now()
	var records, bytes int64
	open := len(dbs)
	for open > 0 {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		switch e := c.Poll(100).(type) {
		case *kafka.Message:
			d := dbs[e.TopicPartition.Partition]
			if e.Value == nil {
				d.wb.DeleteCF(d.hs[0], e.Key)
			} else {
				d.wb.PutCF(d.hs[0], e.Key, e.Value)
			}
			d.n++
			d.last = int64(e.TopicPartition.Offset)
			records++
			bytes += int64(len(e.Key) + len(e.Value))
			if d.n >= restoreBatch {
				if err := write(d); err != nil {
					return err
				}
			}
		case kafka.PartitionEOF:
			d := dbs[e.Partition]
			if !d.eof {
				if err := write(d); err != nil {
					return err
				}
				d.eof = true
				open--
			}
		case kafka.Error:
			if e.IsFatal() {
				return e
			}
			if e.Code() != kafka.ErrPartitionEOF {
				fmt.Fprintln(os.Stderr, "bench rawrestore:", e)
			}
		}
	}
	end := time.Now()
	fmt.Printf("RESTORE-START %d raw %s 0 0 true\n", start.UnixNano(), spec.Input)
	fmt.Printf("RESTORE-END %d raw %s %d %d\n", end.UnixNano(), spec.Input, records, bytes)
	<-ctx.Done() // stay up so the harness can read the peak RSS
	return nil
}
