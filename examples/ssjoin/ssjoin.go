// Package ssjoin joins two streams of String keys and values three ways in
// one topology, and a third stream with itself, the way Kafka Streams runs
// the same calls:
//
//	inner  left ⋈ right, records at most 10 s apart, no grace
//	left   left ⟕ right, 5 s apart with 2 s of grace, named "lj" with stores
//	       "ljstore-…" and a changelog setting of its own
//	outer  left ⟗ right, 3 s before and 6 s after with 1 s of grace, in-memory stores
//	self   input.selectKey(k → k) ⋈ itself, 2 s apart: both sides read the
//	       one repartition topic (a join reuses its stream's)
//
// Each result is "inner:", "left:", "outer:" or "self:" followed by left+right, a
// missing side written "null" as Java concatenates it; the left and outer
// results are re-keyed so that a null key becomes "none" (a record with a
// null key would go to a partition of the producer's choosing). The package
// also has CrashName, the left join of the crash suite. Arguments: input,
// left, right and output.
package ssjoin

import (
	"strings"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology.
const Name = "ssjoin"

// Store names of the left join, whose StreamJoined names them.
const (
	LeftThisStore   = "ljstore-this-join-store"
	LeftOtherStore  = "ljstore-outer-other-join-store"
	LeftSharedStore = "ljstore-left-shared-join-store"
)

func orNull(p *string) string {
	if p == nil {
		return "null"
	}
	return *p
}

func noKey(k, _ string) string {
	if k == "" {
		return "none"
	}
	return k
}

// Build returns the topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, leftTopic, rightTopic, output := "ssjoin-input", "ssjoin-left", "ssjoin-right", "ssjoin-output"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["left"]; v != "" {
		leftTopic = v
	}
	if v := args["right"]; v != "" {
		rightTopic = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	str := kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})
	produced := kstreams.ProducedWith[string, string](serde.String{}, serde.String{})
	sj := func() kstreams.StreamJoined[string, string, string] {
		return kstreams.StreamJoined[string, string, string]{KeySerde: serde.String{}, ValueSerde: serde.String{}, OtherValueSerde: serde.String{}}
	}
	b := kstreams.NewStreamsBuilder()
	left := kstreams.Stream(b, []string{leftTopic}, str)
	right := kstreams.Stream(b, []string{rightTopic}, str)

	kstreams.Join(left, right, func(l, r string) string { return "inner:" + l + "+" + r },
		kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(10*time.Second), sj()).To(output, produced)

	named := sj()
	named.Name, named.StoreName = "lj", "ljstore"
	named.LogConfig = map[string]string{"min.insync.replicas": "1"}
	lj := kstreams.LeftJoin(left, right, func(l string, r *string) string { return "left:" + l + "+" + orNull(r) },
		kstreams.JoinWindowsOfTimeDifferenceAndGrace(5*time.Second, 2*time.Second), named)
	kstreams.SelectKey(lj, noKey).To(output, produced)

	inMemory := sj()
	inMemory.StoreType = kstreams.InMemory
	oj := kstreams.OuterJoin(left, right, func(l, r *string) string { return "outer:" + orNull(l) + "+" + orNull(r) },
		kstreams.JoinWindowsOfTimeDifferenceAndGrace(3*time.Second, time.Second).After(6*time.Second), inMemory)
	kstreams.SelectKey(oj, noKey).To(output, produced)

	// A re-keyed stream joined with itself: both sides read the one
	// repartition topic the first side creates.
	rekeyed := kstreams.SelectKey(kstreams.Stream(b, []string{input}, str), func(k, _ string) string { return k })
	kstreams.Join(rekeyed, rekeyed, func(l, r string) string { return "self:" + l + "+" + r },
		kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(2*time.Second), sj()).To(output, produced)
	return b.Build()
}

// CrashName is the name of the crash-test topology: one topic's records,
// split by the first letter of their value into a left ("L…") and a right
// stream ("R…"), left-joined within 30 ms and no grace. Results are
// left+right, or left+null once a left record's window has closed without a
// partner. Arguments: input and output.
const CrashName = "ssjoincrash"

// BuildCrash returns the crash-test topology.
func BuildCrash(args map[string]string) (*kstreams.Topology, error) {
	input, output := "ssjoincrash-input", "ssjoincrash-output"
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
	kstreams.LeftJoin(left, right, func(l string, r *string) string { return l + "+" + orNull(r) },
		kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(30*time.Millisecond),
		kstreams.StreamJoined[string, string, string]{KeySerde: serde.String{}, ValueSerde: serde.String{}, OtherValueSerde: serde.String{}}).
		To(output, kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	return b.Build()
}
