package kstreamstest_test

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/stoatflow/stoatflow/examples/optimized"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
)

// RepartitionOptimizingTest's expectations, without and with
// topology.optimization=all: the same final value per key on every output
// (count 3, length sum 9, "foo:bar:baz", the join's "baz:3", the B values
// upper-cased), through four repartition topics or through one.
func TestRepartitionOptimizingKeepsKafkasResults(t *testing.T) {
	for _, opt := range [][]string{nil, {kstreams.OptimizeReuseKTableSourceTopics, kstreams.OptimizeMergeRepartitionTopics}} {
		t.Run(fmt.Sprint(opt), func(t *testing.T) {
			topo, err := optimized.Build(map[string]string{"input": "in", "output": "out"})
			if err != nil {
				t.Fatal(err)
			}
			if topo, err = topo.Optimize(opt); err != nil {
				t.Fatal(err)
			}
			d, err := kstreamstest.New(topo, stringDefaults)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			for _, k := range []string{"a", "b", "c"} {
				for _, v := range []string{"foo", "bar", "baz"} {
					if err := d.Pipe("in", []byte(k), []byte(v), 0); err != nil {
						t.Fatal(err)
					}
				}
			}
			last := func(topic string, value func([]byte) string) map[string]string {
				m := map[string]string{}
				for _, r := range d.Records(topic) {
					m[string(r.Key)] = value(r.Value)
				}
				return m
			}
			str := func(b []byte) string { return string(b) }
			long := func(b []byte) string { return fmt.Sprint(int64(binary.BigEndian.Uint64(b))) }
			integer := func(b []byte) string { return fmt.Sprint(int32(binary.BigEndian.Uint32(b))) }
			want := map[string]map[string]string{
				"out":                             {"A": "3", "B": "3", "C": "3"},
				"out" + optimized.AggregateSuffix: {"A": "9", "B": "9", "C": "9"},
				"out" + optimized.ReduceSuffix:    {"A": "foo:bar:baz", "B": "foo:bar:baz", "C": "foo:bar:baz"},
				"out" + optimized.JoinedSuffix:    {"A": "baz:3"},
			}
			decode := map[string]func([]byte) string{"out": long, "out" + optimized.AggregateSuffix: integer}
			for topic, w := range want {
				dec := decode[topic]
				if dec == nil {
					dec = str
				}
				if got := last(topic, dec); fmt.Sprint(got) != fmt.Sprint(w) {
					t.Errorf("%s: %v, want %v", topic, got, w)
				}
			}
			var processed []string
			for _, r := range d.Records("out" + optimized.ProcessedSuffix) {
				processed = append(processed, string(r.Value))
			}
			if fmt.Sprint(processed) != "[FOO BAR BAZ]" {
				t.Errorf("processed %v, want [FOO BAR BAZ]", processed)
			}
			repartitions := 0
			for _, st := range topo.Subtopologies() {
				for _, src := range st.Sources {
					if src.Internal {
						repartitions++
					}
				}
			}
			if wantN := map[bool]int{false: 4, true: 1}[opt != nil]; repartitions != wantN {
				t.Errorf("%d repartition topics read, want %d", repartitions, wantN)
			}
		})
	}
}
