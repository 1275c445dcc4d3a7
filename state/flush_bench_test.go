package state_test

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"syscall"
	"testing"
	"time"

	. "github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/state/rocksdb"
)

// processCPU returns the CPU time of the whole process, user and system,
// RocksDB's flush and compaction threads included.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkFlushPolicyWordCount is a word count's store under a flush
// policy: each op reads a word's count and writes it back, words drawn from
// a Zipf distribution over a vocabulary, a commit every perCommit updates
// (10,000: a 100 ms commit interval at 100k records/s), offsets advancing
// by one per update. cpu-ns/op is the process's CPU time per update,
// RocksDB's background flushes and compactions included, which is what the
// policy adds to; wall ns/op leaves them out.
func BenchmarkFlushPolicyWordCount(b *testing.B) {
	for _, bc := range []struct {
		name      string
		p         FlushPolicy
		vocab     int
		perCommit int
	}{
		{"vocab=200000/policy=off", FlushPolicy{}, 200_000, 10_000},
		{"vocab=200000/policy=records-1000000", FlushPolicy{MaxLagRecords: 1_000_000, MaxLag: time.Minute}, 200_000, 10_000},
		{"vocab=200000/policy=records-100000", FlushPolicy{MaxLagRecords: 100_000, MaxLag: time.Minute}, 200_000, 10_000},
		{"vocab=200000/policy=records-20000", FlushPolicy{MaxLagRecords: 20_000, MaxLag: time.Minute}, 200_000, 10_000},
		// make bench's word count: 10,000 words over 4 partitions, about
		// 700 updates per store partition per commit.
		{"vocab=2500/policy=off", FlushPolicy{}, 2500, 700},
		{"vocab=2500/policy=records-100000", FlushPolicy{MaxLagRecords: 100_000, MaxLag: time.Minute}, 2500, 700},
	} {
		perCommit := bc.perCommit
		b.Run(bc.name, func(b *testing.B) {
			s, err := rocksdb.OpenKeyValue(b.TempDir(), KeyValueOptions{Name: "counts"}, rocksdb.Options{Flush: bc.p})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			d, _ := AsDurable(s)
			tp := TopicPartition{Topic: "app-counts-changelog", Partition: 0}
			rng := rand.New(rand.NewSource(1))
			zipf := rand.NewZipf(rng, 1.1, 1, uint64(bc.vocab-1))
			words := make([][]byte, bc.vocab)
			for i := range words {
				words[i] = []byte(fmt.Sprintf("word-%06d", i))
			}
			val := make([]byte, 8)
			var worst int64
			b.ResetTimer()
			cpu0 := processCPU(b)
			for i := 0; i < b.N; i++ {
				w := words[zipf.Uint64()]
				v, err := s.Get(w)
				if err != nil {
					b.Fatal(err)
				}
				var n uint64
				if len(v) == 8 {
					n = binary.BigEndian.Uint64(v)
				}
				binary.BigEndian.PutUint64(val, n+1)
				if err := s.Put(w, val); err != nil {
					b.Fatal(err)
				}
				if (i+1)%perCommit == 0 || i == b.N-1 {
					if err := s.Commit(map[TopicPartition]*int64{tp: Offset(int64(i))}); err != nil {
						b.Fatal(err)
					}
					worst = max(worst, d.DurableLag(time.Now()).Records)
				}
			}
			// Let background flushes and compactions the run started finish,
			// so that their CPU is counted.
			time.Sleep(300 * time.Millisecond)
			cpu := processCPU(b) - cpu0
			b.StopTimer()
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(d.DurableLag(time.Now()).Flushes), "flushes")
			b.ReportMetric(float64(worst), "max-lag-offsets")
		})
	}
}
