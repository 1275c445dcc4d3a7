package integration

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
	"github.com/stoatflow/stoatflow/txn"
)

// LoadConfig reads .properties files with --set style overrides as the
// sidecar does (compat.LoadFiles, with opts), and fails on any
// configuration error.
func LoadConfig(files []string, set map[string]string, opts ...compat.LoadOption) (*compat.Config, error) {
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	sets := make([]string, 0, len(keys))
	for _, k := range keys {
		sets = append(sets, k+"="+set[k])
	}
	cfg, diags := compat.LoadFiles(files, sets, nil, opts...)
	if err := diags.Err(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// Counters collects what a running StoatFlow instance reports through its
// hooks: restores per store, commits and dropped records.
type Counters struct {
	streams.NoHooks
	mu           sync.Mutex
	restored     map[string]int64 // store → records restored
	fullRestores map[string]int
	restoreStart map[string]int64
	commits      int
	commitErrs   int
	triggers     map[txn.Trigger]int
	dropped      map[string]int
}

// NewCounters returns empty counters.
func NewCounters() *Counters {
	return &Counters{restored: map[string]int64{}, fullRestores: map[string]int{}, restoreStart: map[string]int64{},
		triggers: map[txn.Trigger]int{}, dropped: map[string]int{}}
}

// OnCommit implements streams.Hooks.
func (c *Counters) OnCommit(_ int, stats txn.CommitStats, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.commitErrs++
		return
	}
	c.commits++
	c.triggers[stats.Trigger]++
}

// OnRestoreStart implements streams.Hooks.
func (c *Counters) OnRestoreStart(store string, tp state.TopicPartition, start, _ int64, full bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.restoreStart[tp.String()] = start
	if full {
		c.fullRestores[store]++
	}
}

// OnRestoreBatch implements streams.Hooks.
func (c *Counters) OnRestoreBatch(store string, _ state.TopicPartition, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.restored[store] += int64(n)
}

// OnDroppedRecord implements streams.Hooks.
func (c *Counters) OnDroppedRecord(_ kstreams.TaskID, _ string, reason string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropped[reason]++
}

// Restored returns the changelog records restored into store.
func (c *Counters) Restored(store string) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.restored[store]
}

// FullRestores returns how often store restored from the changelog's
// beginning for lack of a usable offset.
func (c *Counters) FullRestores(store string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fullRestores[store]
}

// Commits returns successful and failed commits.
func (c *Counters) Commits() (ok, failed int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.commits, c.commitErrs
}

// Triggers returns the successful commits per trigger.
func (c *Counters) Triggers(t txn.Trigger) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.triggers[t]
}

// Dropped returns the records dropped for reason.
func (c *Counters) Dropped(reason string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dropped[reason]
}

// StartStoatFlow builds the topology build makes of args and starts it in
// process, waiting until it is RUNNING.
func StartStoatFlow(ctx context.Context, build kstreams.TopologyFactory, args map[string]string, cfg *compat.Config, opts ...streams.Option) (*streams.KafkaStreams, error) {
	topo, err := build(args)
	if err != nil {
		return nil, err
	}
	ks, err := streams.New(topo, cfg, opts...)
	if err != nil {
		return nil, err
	}
	running := make(chan struct{})
	var once sync.Once
	ks.SetStateListener(func(next, _ streams.State) {
		if next == streams.Running {
			once.Do(func() { close(running) })
		}
	})
	if err := ks.Start(ctx); err != nil {
		return nil, err
	}
	select {
	case <-running:
		return ks, nil
	case <-ks.Done():
		return nil, fmt.Errorf("integration: stopped before RUNNING: %v", ks.Err())
	case <-ctx.Done():
		ks.Close(context.Background())
		return nil, fmt.Errorf("integration: waiting for RUNNING: %w", ctx.Err())
	}
}
