package integration

import (
	"maps"
	"testing"

	"github.com/stoatflow/stoatflow/examples"
	"github.com/stoatflow/stoatflow/kstreams"
)

// topologies are the topologies the tests run, in process or in a child
// process that a spec names one to (childSpec.Topology): the examples',
// and the tests' own. Nothing adds to it after it is built.
var topologies = func() map[string]kstreams.TopologyFactory {
	m := examples.Topologies()
	maps.Copy(m, map[string]kstreams.TopologyFactory{
		avroGenericCount:  buildAvroGenericCount,
		avroWindowed:      buildAvroWindowed,
		doubler:           buildDoubler,
		emptyKeysName:     buildEmptyKeys,
		filteredTimeName:  buildFilteredTime,
		merger:            buildMerger,
		panicProcessing:   buildPanicProcessing,
		poisonProcessing:  buildPoisonProcessing,
		regroupCrashName:  buildRegroupCrash,
		suppressCrashName: buildSuppressCrash,
	})
	return m
}()

// topology returns the factory of the topology called name, failing t
// when there is none.
func topology(t testing.TB, name string) kstreams.TopologyFactory {
	t.Helper()
	f, ok := topologies[name]
	if !ok {
		t.Fatalf("integration: no topology %q", name)
	}
	return f
}
