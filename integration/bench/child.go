package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/linxGnu/grocksdb"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/examples/avrocount"
	"github.com/stoatflow/stoatflow/examples/joins"
	"github.com/stoatflow/stoatflow/examples/passthrough"
	"github.com/stoatflow/stoatflow/examples/suppress"
	"github.com/stoatflow/stoatflow/examples/windowedcount"
	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/integration"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/state/rocksdb"
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

// topologies are the topologies the workloads run, by the names their
// specs give (childSpec.Topology).
var topologies = map[string]kstreams.TopologyFactory{
	avrocount.WindowedName: avrocount.BuildWindowed,
	joins.StreamTableName:  joins.BuildStreamTable,
	latestTopology:         buildLatest,
	passthrough.Name:       passthrough.Build,
	ssJoinName:             buildSsJoin,
	suppress.FinalName:     suppress.BuildFinal,
	windowedcount.Name:     windowedcount.Build,
	wordcount.Name:         wordcount.Build,
}

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
	// restoring counts the records applied by each changelog partition's
	// restore that has not ended.
	restoring map[state.TopicPartition]int64
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

// OnRestoreStart prints RESTORE-START, after RESTORE-SUSPENDED with the
// records applied when the partition's previous restore never ended (its
// task was closed while restoring), as the reference jar prints Kafka
// Streams' onRestoreSuspended.
func (h *phaseHooks) OnRestoreStart(store string, tp state.TopicPartition, start, end int64, full bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if n, ok := h.restoring[tp]; ok {
		fmt.Printf("RESTORE-SUSPENDED %d %s %s %d\n", time.Now().UnixNano(), store, tp, n)
	}
	if h.restoring == nil {
		h.restoring = map[state.TopicPartition]int64{}
	}
	h.restoring[tp] = 0
	fmt.Printf("RESTORE-START %d %s %s %d %d %v\n", time.Now().UnixNano(), store, tp, start, end, full)
}

func (h *phaseHooks) OnRestoreBatch(_ string, tp state.TopicPartition, n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.restoring[tp]; ok {
		h.restoring[tp] += int64(n)
	}
}

func (h *phaseHooks) OnRestoreEnd(store string, tp state.TopicPartition, total int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.restoring, tp)
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
	build, ok := topologies[spec.Topology]
	if !ok {
		return fmt.Errorf("no topology %q", spec.Topology)
	}
	ks, err := integration.StartStoatFlow(sctx, build, spec.Args, cfg, streams.WithHooks(hooks))
	if err != nil {
		return err
	}
	fmt.Println("RUNNING")
	select {
	case <-ctx.Done():
	case <-ks.Done():
		return fmt.Errorf("stopped: %v", ks.Err())
	}
	// How much of the process's memory the Go runtime holds, and how much
	// of the resident set is mapped files (the binary and its shared
	// libraries, librocksdb's text among them); the rest is C memory
	// (RocksDB's memtables, block cache and the allocator's arenas).
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("GOMEM %d %d %d\n", ms.Sys-ms.HeapReleased, ms.HeapInuse, rssFileBytes())
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

// runLoop is the ceiling: a consume → produce loop on raw franz-go with
// the clients' settings the engines use (read_committed, linger 100 ms,
// idempotence), committing every CommitMs: a transaction with the consumed
// offsets, or a flush and an offset commit.
func runLoop(ctx context.Context, spec childSpec) error {
	opts := []kgo.Opt{
		kgo.SeedBrokers(strings.Split(spec.Bootstrap, ",")...),
		kgo.ConsumerGroup(spec.Group),
		kgo.ConsumeTopics(spec.Input),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.DisableAutoCommit(),
		kgo.Balancers(kgo.RangeBalancer()),
		kgo.DefaultProduceTopic(spec.Output),
		kgo.ProducerLinger(100 * time.Millisecond),
	}
	interval := time.Duration(spec.CommitMs) * time.Millisecond
	if spec.Transactional {
		// franz-go's group consumers always fetch offsets with
		// require_stable, as the engines do under exactly_once_v2.
		return runTxnLoop(ctx, spec, interval, append(opts,
			kgo.TransactionalID(spec.Group+"-loop"), kgo.TransactionTimeout(10*time.Second)))
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return err
	}
	defer cl.Close()
	var deliveryErr atomic.Pointer[error]
	promise := func(_ *kgo.Record, err error) {
		if err != nil {
			deliveryErr.CompareAndSwap(nil, &err)
		}
	}
	fmt.Println("RUNNING")
	last := time.Now()
	commit := func() error {
		cctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := cl.Flush(cctx); err != nil {
			return err
		}
		if err := deliveryErr.Load(); err != nil {
			return *err
		}
		// Every polled record is produced and acknowledged: their
		// offsets may be committed.
		return cl.CommitUncommittedOffsets(cctx)
	}
	for ctx.Err() == nil {
		if err := forward(ctx, cl, promise); err != nil {
			return err
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
	fmt.Println("CLOSED")
	return nil
}

// forward polls once (up to 100 ms, at most 1000 records) and produces
// every polled record to the output with its key, value and timestamp.
func forward(ctx context.Context, cl *kgo.Client, promise func(*kgo.Record, error)) error {
	pctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	fetches := cl.PollRecords(pctx, 1000)
	cancel()
	var fatal error
	fetches.EachError(func(topic string, p int32, err error) {
		if fatal == nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) && !kerr.IsRetriable(err) {
			fatal = fmt.Errorf("fetching %s-%d: %w", topic, p, err)
		}
	})
	if fatal != nil {
		return fatal
	}
	fetches.EachRecord(func(r *kgo.Record) {
		// Produce blocks while the producer's buffer is full.
		cl.Produce(ctx, &kgo.Record{Key: r.Key, Value: r.Value, Timestamp: r.Timestamp}, promise)
	})
	return nil
}

// runTxnLoop is runLoop under transactions: one group transact session,
// its consumed offsets committed in each transaction.
func runTxnLoop(ctx context.Context, spec childSpec, interval time.Duration, opts []kgo.Opt) error {
	s, err := kgo.NewGroupTransactSession(opts...)
	if err != nil {
		return err
	}
	defer s.Close()
	var deliveryErr atomic.Pointer[error]
	promise := func(_ *kgo.Record, err error) {
		if err != nil {
			deliveryErr.CompareAndSwap(nil, &err)
		}
	}
	if err := s.Begin(); err != nil {
		return err
	}
	fmt.Println("RUNNING")
	last := time.Now()
	commit := func(again bool) error {
		cctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		try := kgo.TryCommit
		if deliveryErr.Load() != nil {
			try = kgo.TryAbort
		}
		committed, err := s.End(cctx, try)
		if err != nil {
			return err
		}
		if perr := deliveryErr.Load(); perr != nil {
			return *perr
		}
		if !committed {
			// A rebalance lost the session's partitions: the transaction
			// was aborted and the records are consumed again.
			fmt.Fprintln(os.Stderr, "bench loop: transaction aborted after a rebalance")
		}
		if again {
			return s.Begin()
		}
		return nil
	}
	for ctx.Err() == nil {
		if err := forward(ctx, s.Client(), promise); err != nil {
			return err
		}
		if time.Since(last) >= interval {
			if err := commit(true); err != nil {
				return err
			}
			last = time.Now()
		}
	}
	if err := commit(false); err != nil {
		return err
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
	seeds := kgo.SeedBrokers(strings.Split(spec.Bootstrap, ",")...)
	admCl, err := kgo.NewClient(seeds)
	if err != nil {
		return err
	}
	adm := kadm.NewClient(admCl)
	// Where a read_committed reader's end is: the restore is done when
	// every partition is read up to it.
	octx, ocancel := context.WithTimeout(ctx, 10*time.Second)
	ends, err := adm.ListCommittedOffsets(octx, spec.Input)
	ocancel()
	admCl.Close()
	if err == nil {
		err = ends.Error()
	}
	if err != nil {
		return err
	}
	type partEnd struct {
		id  int32
		end int64
	}
	var parts []partEnd
	ends.Each(func(o kadm.ListedOffset) {
		if o.Topic == spec.Input {
			parts = append(parts, partEnd{o.Partition, o.Offset})
		}
	})
	if len(parts) == 0 {
		return fmt.Errorf("topic %s has no partitions", spec.Input)
	}
	type db struct {
		db   *grocksdb.DB
		hs   []*grocksdb.ColumnFamilyHandle
		wb   *grocksdb.WriteBatch
		n    int
		last int64
		end  int64
		eof  bool
	}
	opts := grocksdb.NewDefaultOptions()
	defer opts.Destroy()
	opts.SetCreateIfMissing(true)
	opts.SetCreateIfMissingColumnFamilies(true)
	opts.SetAtomicFlush(true)
	opts.SetWriteBufferSize(rocksdb.DefaultWriteBufferBytes)
	opts.SetDbWriteBufferSize(rocksdb.DefaultWriteBufferBytes)
	opts.SetCompression(grocksdb.NoCompression)
	bbto := rocksdb.NewTableOptions()
	defer bbto.Destroy()
	opts.SetBlockBasedTableFactory(bbto)
	wo := grocksdb.NewDefaultWriteOptions()
	defer wo.Destroy()
	wo.DisableWAL(true)
	dbs := map[int32]*db{}
	assign := map[int32]kgo.Offset{}
	for _, pm := range parts {
		path := filepath.Join(spec.Dir, fmt.Sprint(pm.id))
		if err := os.MkdirAll(path, 0o755); err != nil {
			return err
		}
		d, hs, err := grocksdb.OpenDbColumnFamilies(opts, path,
			[]string{"default", "offsets"}, []*grocksdb.Options{opts, opts})
		if err != nil {
			return err
		}
		dbs[pm.id] = &db{db: d, hs: hs, wb: grocksdb.NewWriteBatch(), last: -1, end: pm.end}
		assign[pm.id] = kgo.NewOffset().AtStart()
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
	// Control records are kept so that the read position is known when
	// the log ends with a transaction marker.
	c, err := kgo.NewClient(seeds,
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{spec.Input: assign}),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()),
		kgo.KeepControlRecords(),
	)
	if err != nil {
		return err
	}
	defer c.Close()
	fmt.Println("RUNNING")
	start := time.Now()
	var records, bytes int64
	open := 0
	for _, d := range dbs {
		if d.end <= 0 {
			d.eof = true
		} else {
			open++
		}
	}
	for open > 0 {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		pctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		fetches := c.PollFetches(pctx)
		cancel()
		var fatal error
		fetches.EachError(func(topic string, p int32, err error) {
			if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
				return
			}
			if !kerr.IsRetriable(err) {
				if fatal == nil {
					fatal = fmt.Errorf("reading %s-%d: %w", topic, p, err)
				}
				return
			}
			fmt.Fprintln(os.Stderr, "bench rawrestore:", err)
		})
		if fatal != nil {
			return fatal
		}
		var werr error
		fetches.EachRecord(func(e *kgo.Record) {
			d := dbs[e.Partition]
			if werr != nil || d.eof {
				return
			}
			if !e.Attrs.IsControl() {
				if e.Value == nil {
					d.wb.DeleteCF(d.hs[0], e.Key)
				} else {
					d.wb.PutCF(d.hs[0], e.Key, e.Value)
				}
				d.n++
				d.last = e.Offset
				records++
				bytes += int64(len(e.Key) + len(e.Value))
				if d.n >= restoreBatch {
					werr = write(d)
				}
			}
			if werr == nil && e.Offset+1 >= d.end {
				werr = write(d)
				d.eof = true
				open--
			}
		})
		if werr != nil {
			return werr
		}
	}
	end := time.Now()
	fmt.Printf("RESTORE-START %d raw %s 0 0 true\n", start.UnixNano(), spec.Input)
	fmt.Printf("RESTORE-END %d raw %s %d %d\n", end.UnixNano(), spec.Input, records, bytes)
	<-ctx.Done() // stay up so the harness can read the peak RSS
	return nil
}

// rssFileBytes is the process's resident file-backed memory (RssFile in
// /proc/self/status), 0 where that is not available.
func rssFileBytes() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "RssFile:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}
