package state_test

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"testing"

	"github.com/linxGnu/grocksdb"

	"github.com/stoatflow/stoatflow/internal/overlay"
	. "github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/state/rocksdb"
)

// Benchmarks compare the overlay path with raw grocksdb WriteBatch writes of
// the same data, on the same options (no WAL, atomic flush, 16 MiB
// memtable). Keys are 16 bytes.

const benchBatch = 1000

func benchKey(i int) []byte {
	k := make([]byte, 16)
	copy(k, "key-")
	binary.BigEndian.PutUint64(k[8:], uint64(i)*2654435761%(1<<40))
	return k
}

type rawDB struct {
	db   *grocksdb.DB
	cf   *grocksdb.ColumnFamilyHandle
	hs   []*grocksdb.ColumnFamilyHandle
	opts *grocksdb.Options
	wo   *grocksdb.WriteOptions
	ro   *grocksdb.ReadOptions
}

func openRaw(b *testing.B) *rawDB {
	opts := grocksdb.NewDefaultOptions()
	opts.SetCreateIfMissing(true)
	opts.SetCreateIfMissingColumnFamilies(true)
	opts.SetAtomicFlush(true)
	opts.SetWriteBufferSize(rocksdb.DefaultWriteBufferBytes)
	db, hs, err := grocksdb.OpenDbColumnFamilies(opts, b.TempDir(), []string{"default", "offsets"}, []*grocksdb.Options{opts, opts})
	if err != nil {
		b.Fatal(err)
	}
	wo := grocksdb.NewDefaultWriteOptions()
	wo.DisableWAL(true)
	r := &rawDB{db: db, cf: hs[0], hs: hs, opts: opts, wo: wo, ro: grocksdb.NewDefaultReadOptions()}
	b.Cleanup(func() {
		for _, h := range r.hs {
			h.Destroy()
		}
		r.db.Close()
	})
	return r
}

func openBenchKV(b *testing.B) KeyValueStore {
	s, err := rocksdb.OpenKeyValue(b.TempDir(), KeyValueOptions{Name: "bench"}, rocksdb.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// BenchmarkPutCommit measures write throughput: per op one 16-byte key and
// a value, committed in batches of 1000.
func BenchmarkPutCommit(b *testing.B) {
	for _, size := range []int{100} {
		val := make([]byte, size)
		b.Run(fmt.Sprintf("impl=raw-writebatch/value=%d", size), func(b *testing.B) {
			r := openRaw(b)
			wb := grocksdb.NewWriteBatch()
			defer wb.Destroy()
			b.SetBytes(int64(16 + size))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				wb.PutCF(r.cf, benchKey(i), val)
				if (i+1)%benchBatch == 0 || i == b.N-1 {
					wb.PutCF(r.hs[1], []byte("t-0"), binary.BigEndian.AppendUint64(nil, uint64(i)))
					if err := r.db.Write(r.wo, wb); err != nil {
						b.Fatal(err)
					}
					wb.Clear()
				}
			}
		})
		b.Run(fmt.Sprintf("impl=overlay-commit/value=%d", size), func(b *testing.B) {
			s := openBenchKV(b)
			b.SetBytes(int64(16 + size))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := s.Put(benchKey(i), val); err != nil {
					b.Fatal(err)
				}
				if (i+1)%benchBatch == 0 || i == b.N-1 {
					if err := s.Commit(map[TopicPartition]*int64{changelogTP: Offset(int64(i))}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

const benchKeys = 100_000

func fillBench(b *testing.B, s KeyValueStore, r *rawDB) {
	val := make([]byte, 100)
	wb := grocksdb.NewWriteBatch()
	defer wb.Destroy()
	for i := 0; i < benchKeys; i++ {
		if s != nil {
			s.Put(benchKey(i), val)
			if (i+1)%10_000 == 0 {
				commit(b, s, int64(i))
			}
		}
		if r != nil {
			wb.PutCF(r.cf, benchKey(i), val)
			if (i+1)%10_000 == 0 {
				r.db.Write(r.wo, wb)
				wb.Clear()
			}
		}
	}
}

// BenchmarkGet measures point reads of present keys over 100k committed
// keys.
func BenchmarkGet(b *testing.B) {
	b.Run("impl=raw-rocksdb", func(b *testing.B) {
		r := openRaw(b)
		fillBench(b, nil, r)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			sl, err := r.db.GetCF(r.ro, r.cf, benchKey(i%benchKeys))
			if err != nil || !sl.Exists() {
				b.Fatal(err)
			}
			sl.Free()
		}
	})
	for _, tc := range []struct {
		name    string
		iso     IsolationLevel
		overlay bool
	}{
		{"view=read-committed", ReadCommitted, false},
		{"view=read-uncommitted/overlay=miss", ReadUncommitted, false},
		{"view=read-uncommitted/overlay=hit", ReadUncommitted, true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			s := openBenchKV(b)
			fillBench(b, s, nil)
			val := make([]byte, 100)
			// 10k uncommitted keys: the hit case reads them, the miss case
			// reads others past an overlay of that size.
			for i := 0; i < 10_000; i++ {
				s.Put(benchKey(i), val)
			}
			v := s.ReadOnly(tc.iso)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k := benchKey(10_000 + i%(benchKeys-10_000))
				if tc.overlay {
					k = benchKey(i % 10_000)
				}
				got, err := v.Get(k)
				if err != nil || got == nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRangeScan reads 1000 consecutive keys of 100k, with a share of
// the range overwritten in the overlay.
func BenchmarkRangeScan(b *testing.B) {
	for _, pct := range []int{0, 10, 100} {
		b.Run(fmt.Sprintf("overlay=%dpct", pct), func(b *testing.B) {
			s := openBenchKV(b)
			val := make([]byte, 100)
			for i := 0; i < benchKeys; i++ {
				k := make([]byte, 8)
				binary.BigEndian.PutUint64(k, uint64(i))
				s.Put(k, val)
			}
			commit(b, s, 1)
			if pct > 0 {
				for i := 0; i < benchKeys; i += 100 / pct {
					k := make([]byte, 8)
					binary.BigEndian.PutUint64(k, uint64(i))
					s.Put(k, val)
				}
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := uint64(i*1000) % (benchKeys - 1000)
				from := binary.BigEndian.AppendUint64(nil, start)
				to := binary.BigEndian.AppendUint64(nil, start+999)
				it, err := s.Range(from, to)
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for it.Next() {
					n++
				}
				it.Close()
				if n != 1000 {
					b.Fatalf("scanned %d", n)
				}
			}
		})
	}
}

// BenchmarkCommit measures one commit's latency against the number of
// buffered 100-byte values.
func BenchmarkCommit(b *testing.B) {
	for _, n := range []int{100, 1000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("overlay=%d", n), func(b *testing.B) {
			s := openBenchKV(b)
			val := make([]byte, 100)
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				for j := 0; j < n; j++ {
					s.Put(benchKey(j), val)
				}
				b.StartTimer()
				commit(b, s, int64(i))
			}
		})
	}
}

// BenchmarkOverlayMemory reports heap bytes per buffered key+value byte.
func BenchmarkOverlayMemory(b *testing.B) {
	for _, size := range []int{100, 1000} {
		b.Run(fmt.Sprintf("value=%d", size), func(b *testing.B) {
			val := make([]byte, size)
			const n = 100_000
			var ratio float64
			for i := 0; i < b.N; i++ {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				m := overlay.New()
				for j := 0; j < n; j++ {
					m.Put(benchKey(j), val)
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				ratio = float64(after.HeapAlloc-before.HeapAlloc) / float64(m.Bytes())
				runtime.KeepAlive(m)
			}
			b.ReportMetric(ratio, "heap-bytes/buffered-byte")
		})
	}
}
