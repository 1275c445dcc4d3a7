package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// ssJoinName is the stream-stream join of the ssjoin-eos workload, the twin
// of the reference's BenchSsJoin: one topic's records split by the first
// letter of their value into a left ("L…") and a right stream ("R…"),
// left-joined within ssJoinWindow and no grace. Results are left+right, or
// left+null once a left record's window has closed without a partner.
// Arguments: input and output.
const ssJoinName = "benchssjoin"

// ssJoinWindow is the join's time difference. The workload's records are
// ssJoinStep apart in event time over the key cardinality, so a left record
// meets on average 2·ssJoinWindow·(1/2)/(keys·ssJoinStep) right records of
// its key: one at the default 10000 keys.
const (
	ssJoinWindow = 10 * time.Second
	ssJoinStep   = time.Millisecond
)

// buildSsJoin builds ssJoinName.
func buildSsJoin(args map[string]string) (*kstreams.Topology, error) {
	input, output := "benchssjoin-input", "benchssjoin-output"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	b := kstreams.NewStreamsBuilder()
	in := kstreams.Stream(b, []string{input}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	left := in.Filter(func(_, v string) bool { return strings.HasPrefix(v, "L") })
	right := in.Filter(func(_, v string) bool { return strings.HasPrefix(v, "R") })
	kstreams.LeftJoin(left, right, func(l string, r *string) string {
		if r == nil {
			return l + "+null" // Java's string concatenation of a missing partner
		}
		return l + "+" + *r
	}, kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(ssJoinWindow),
		kstreams.StreamJoined[string, string, string]{KeySerde: serde.String{}, ValueSerde: serde.String{}, OtherValueSerde: serde.String{}}).
		To(output, kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	return b.Build()
}

// ssJoinRecord is the i-th record of the ssjoin-eos workload: a left record
// for even i, a right one for odd i, ssJoinStep after the one before it in
// event time, so that how many partners a record meets does not depend on
// how fast the topic was filled.
func (b *bench) ssJoinRecord(i int) record {
	v := value(i, b.cfg.valueSize)
	v[0] = 'L'
	if i%2 == 1 {
		v[0] = 'R'
	}
	return record{key: key(i, b.cfg.keys), value: v, at: time.Duration(i) * ssJoinStep, stamped: true}
}

// tableRows is how many rows the streamtable-eos workload's table has: one
// per key, except every eighth key, which has none, so the inner join drops
// one lookup in eight and the left join writes it with a null row.
func (b *bench) tableRows() int { return b.cfg.keys/8*7 + min(b.cfg.keys%8, 7) }

// tableRecord is the n-th row of the table: the n-th key k<j> with j%8 != 7.
func (b *bench) tableRecord(n int) record {
	j := n/7*8 + n%7
	return record{key: []byte(fmt.Sprintf("k%08d", j)), value: value(n+1<<30, b.cfg.valueSize)}
}

// streamTableOutput is what examples/joins' stream-table topology writes
// for the workload's input once the whole table precedes the stream: a
// left-join result per lookup, an inner-join result per lookup of a key
// with a row, and the left-join results of the others without a partner.
func (b *bench) streamTableOutput() (outputs, nulls int64) {
	for i := 0; i < b.cfg.records; i++ {
		if mix(i)%uint64(b.cfg.keys)%8 == 7 {
			nulls++
		}
	}
	return 2*int64(b.cfg.records) - nulls, nulls
}
