// Command customsidecar is a team's own sidecar: StoatFlow's sidecar with
// the team's topology, large-orders, and no other. It takes the same
// subcommands, flags, .properties keys and HTTP routes as cmd/sidecar:
//
//	go build -o bin/orders-sidecar ./examples/customsidecar
//	bin/orders-sidecar run --config examples/customsidecar/streams.properties
//
// Its whole main package is this file and the topology in largeorders.go.
package main

import "github.com/stoatflow/stoatflow/sidecar"

func main() {
	sidecar.Main(sidecar.Topologies{LargeOrdersName: LargeOrders})
}
