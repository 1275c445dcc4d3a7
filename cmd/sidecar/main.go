// Command sidecar runs StoatFlow beside (or instead of) a Kafka Streams JVM
// application, reading the application's .properties file unchanged.
//
// The first SIGTERM or SIGINT starts a graceful shutdown (commit, close the
// stores, within stoatflow.shutdown.timeout-ms); a second one ends the
// process at once.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // restore the default action: a second signal kills
	}()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}
