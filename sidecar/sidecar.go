// Package sidecar is StoatFlow's sidecar program as a library: the
// subcommands (config, describe, run, demo, version) that read a Kafka
// Streams application's .properties file unchanged and run its Go topology.
package sidecar

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// Main runs the sidecar on os.Args and exits with its status.
//
// The first SIGTERM or SIGINT starts a graceful shutdown (commit, close the
// stores, within stoatflow.shutdown.timeout-ms); a second one ends the
// process at once.
func Main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // restore the default action: a second signal kills
	}()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}
