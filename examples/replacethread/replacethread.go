// Package replacethread is a word count whose processor fails once:
//
//	stream(input) → peek (panics at the first "boom" of the process) → groupBy(value) → count → output
//
// Under REPLACE_THREAD (its streams.properties) the failed thread's epoch
// aborts and a new thread resumes its tasks from their committed state:
// "boom" is processed again, and counted like any word. Arguments: input and
// output. Keys and values are Strings, counts Longs.
package replacethread

import (
	"sync/atomic"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology.
const Name = "replacethread"

// Poison is the word whose first occurrence in a process fails.
const Poison = "boom"

// failed says the process has failed on Poison once.
var failed atomic.Bool

// Failed says whether this process's topology has failed on Poison.
func Failed() bool { return failed.Load() }

// Rearm makes the process's next Poison fail again, for a program that
// runs the topology once more after it failed.
func Rearm() { failed.Store(false) }

// Build returns the topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, output := "replacethread-input", "replacethread-output"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	b := kstreams.NewStreamsBuilder()
	words := kstreams.Stream(b, []string{input}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})).
		Peek(func(_, w string) {
			if w == Poison && failed.CompareAndSwap(false, true) {
				panic("the first " + Poison + " of this process")
			}
		})
	kstreams.GroupBy(words, func(_, w string) string { return w }, kstreams.Grouped[string, string]{KeySerde: serde.String{}, ValueSerde: serde.String{}}).
		Count().ToStream().
		To(output, kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	return b.Build()
}
