// Command sidecar runs StoatFlow beside (or instead of) a Kafka Streams JVM
// application, reading the application's .properties file unchanged.
//
// The first SIGTERM or SIGINT starts a graceful shutdown (commit, close the
// stores, within stoatflow.shutdown.timeout-ms); a second one ends the
// process at once.
package main

import "github.com/stoatflow/stoatflow/sidecar"

func main() { sidecar.Main() }
