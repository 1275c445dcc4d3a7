// Command sidecar runs StoatFlow beside (or instead of) a Kafka Streams JVM
// application, reading the application's .properties file unchanged, with
// the example topologies of examples/ (sidecar help lists them) and the
// production exception handler their files name. A binary with other
// topologies is a main package of a few lines of its own; see package
// sidecar.
//
// The first SIGTERM or SIGINT starts a graceful shutdown (commit, close the
// stores, within stoatflow.shutdown.timeout-ms); a second one ends the
// process at once.
package main

import (
	"github.com/stoatflow/stoatflow/examples"
	"github.com/stoatflow/stoatflow/sidecar"
)

func main() {
	sidecar.Main(examples.Topologies(), sidecar.WithProductionHandlers(examples.ProductionHandlers()),
		sidecar.WithUnlistedTopologies(examples.TestOnly()...))
}
