package kstreams

// TopologyFactory builds a named topology from its arguments (for example
// input and output topic names); missing arguments take the topology's
// defaults. A program that selects topologies by name (the sidecar's
// stoatflow.topology) is given a map of them: nothing registers a topology
// by being imported.
type TopologyFactory func(args map[string]string) (*Topology, error)
