// Command refdemo runs the word count of Kafka Streams 4.4 (the reference
// twin of examples/wordcount) on a local broker: it creates fresh topics,
// feeds sample lines, prints each count as it changes, and stops by itself.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/integration"
	"github.com/stoatflow/stoatflow/internal/demoinput"
)

// sample is the input of make demo's word count, so that the two demos'
// counts compare line by line.
var sample = demoinput.Lines()

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "refdemo:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("refdemo", flag.ContinueOnError)
	bootstrap := fs.String("bootstrap", "127.0.0.1:9092", "Kafka bootstrap address")
	if err := fs.Parse(args); err != nil {
		return err
	}
	root, err := integration.RepoRoot()
	if err != nil {
		return err
	}
	suffix := time.Now().Format("20060102-150405")
	in, out := "demo-lines-"+suffix, "demo-counts-"+suffix
	if err := createTopics(ctx, *bootstrap, in, out); err != nil {
		return err
	}
	if err := produce(*bootstrap, in, sample); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "fed %d lines into %s; starting the Kafka Streams 4.4 word count (exactly_once_v2)\n", len(sample), in)

	stateDir, err := os.MkdirTemp("", "stoatflow-refdemo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stateDir)
	app, err := integration.StartReference(ctx, integration.ReferenceOptions{
		App:     "wordcount",
		Configs: []string{filepath.Join(root, "examples", "wordcount", "streams.properties")},
		Set: map[string]string{
			"application.id":    "demo-wordcount-" + suffix,
			"bootstrap.servers": *bootstrap,
			"state.dir":         stateDir,
		},
		Args: map[string]string{"input": in, "output": out},
	})
	if err != nil {
		return err
	}
	defer app.Stop(45 * time.Second) //nolint:errcheck // best effort on the way out
	if err := app.WaitState(ctx, "RUNNING"); err != nil {
		return err
	}
	return printCounts(ctx, *bootstrap, out, stdout)
}

func createTopics(ctx context.Context, bootstrap string, topics ...string) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(bootstrap, ",")...))
	if err != nil {
		return err
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	res, err := kadm.NewClient(cl).CreateTopics(ctx, 2, 1, nil, topics...)
	if err != nil {
		return fmt.Errorf("creating topics on %s: %w", bootstrap, err)
	}
	for _, r := range res.Sorted() {
		if r.Err != nil {
			return fmt.Errorf("creating topic %s: %w", r.Topic, r.Err)
		}
	}
	return nil
}

func produce(bootstrap, topic string, lines []string) error {
	p, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(bootstrap, ",")...), kgo.DefaultProduceTopic(topic))
	if err != nil {
		return err
	}
	defer p.Close()
	recs := make([]*kgo.Record, 0, len(lines))
	for _, l := range lines {
		recs = append(recs, &kgo.Record{Value: []byte(l)})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := p.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		return fmt.Errorf("delivering lines to %s: %w", topic, err)
	}
	return nil
}

// printCounts prints every count update until the output has been quiet for
// a few seconds.
func printCounts(ctx context.Context, bootstrap, topic string, stdout io.Writer) error {
	c, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(bootstrap, ",")...),
		kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()),
	)
	if err != nil {
		return err
	}
	defer c.Close()
	last := time.Now()
	seen := 0
	deadline := time.Now().Add(2 * time.Minute)
	for ctx.Err() == nil {
		if seen > 0 && time.Since(last) > 4*time.Second {
			fmt.Fprintf(stdout, "%d count updates, output quiet: done\n", seen)
			return nil
		}
		if time.Now().After(deadline) {
			return errors.New("no word counts arrived within 2 minutes")
		}
		pctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		fetches := c.PollFetches(pctx)
		cancel()
		fetches.EachRecord(func(m *kgo.Record) {
			seen++
			last = time.Now()
			_, _ = io.WriteString(stdout, demoinput.CountLine(string(m.Key), m.Value))
		})
	}
	return ctx.Err()
}
