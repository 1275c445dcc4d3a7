package kstreams

import (
	"fmt"
	"slices"
	"sync"
)

// TopologyFactory builds a named topology from its arguments (for example
// input and output topic names); missing arguments take the topology's
// defaults.
type TopologyFactory func(args map[string]string) (*Topology, error)

var registry = struct {
	sync.Mutex
	m map[string]TopologyFactory
}{m: map[string]TopologyFactory{}}

// RegisterTopology makes a topology available by name to programs that look
// topologies up by name, such as the integration harness. The sidecar does
// not read this registry: it runs the topologies its main package gives
// sidecar.Main. It panics when name is taken: two registrations of one name
// are a programming error.
func RegisterTopology(name string, f TopologyFactory) {
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.m[name]; dup {
		panic(fmt.Sprintf("kstreams: topology %q registered twice", name))
	}
	registry.m[name] = f
}

// LookupTopology returns the factory registered under name.
func LookupTopology(name string) (TopologyFactory, bool) {
	registry.Lock()
	defer registry.Unlock()
	f, ok := registry.m[name]
	return f, ok
}

// RegisteredTopologies returns the registered names, sorted.
func RegisteredTopologies() []string {
	registry.Lock()
	defer registry.Unlock()
	out := make([]string, 0, len(registry.m))
	for n := range registry.m {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}
