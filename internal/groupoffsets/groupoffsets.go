// Package groupoffsets reads a group's committed offsets of given
// partitions, as Kafka's consumer does for committed(partitions): one
// OffsetFetch that names the partitions, so that under require_stable an
// open transaction holding the offsets of some other partition of the
// group (another instance's next commit) does not hold up the answer.
package groupoffsets

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Committed is one partition's answer: its committed offset (-1 for none)
// with its metadata, or the partition's own error (UNSTABLE_OFFSET_COMMIT
// while a transaction holds its offset).
type Committed struct {
	Offset   int64
	Metadata string
	Err      error
}

// Offsets are the answers by topic and partition.
type Offsets map[string]map[int32]Committed

// Err is the first partition's error, in topic and partition order, as
// "topic [partition]: error"; nil when every partition has its offset.
func (o Offsets) Err() error {
	for _, topic := range slices.Sorted(maps.Keys(o)) {
		for _, p := range slices.Sorted(maps.Keys(o[topic])) {
			if err := o[topic][p].Err; err != nil {
				return fmt.Errorf("%s [%d]: %w", topic, p, err)
			}
		}
	}
	return nil
}

// Fetch reads group's committed offsets of parts (topic to partitions);
// stable asks the broker for stable offsets only (require_stable, as
// read_committed consumers do). Every partition asked for is answered; one
// the broker leaves out has no committed offset (-1). The error is the
// request's or the group's; a partition's error is in its Committed
// (Offsets.Err gives the first).
func Fetch(ctx context.Context, cl *kgo.Client, group string, parts map[string][]int32, stable bool) (Offsets, error) {
	req := kmsg.NewPtrOffsetFetchRequest()
	req.Group = group
	req.RequireStable = stable
	for topic, ps := range parts {
		t := kmsg.NewOffsetFetchRequestTopic()
		t.Topic = topic
		t.Partitions = append([]int32(nil), ps...)
		req.Topics = append(req.Topics, t)
	}
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		return nil, err
	}
	out := Offsets{}
	put := func(topic string, p int32, offset int64, md *string, code int16) {
		if out[topic] == nil {
			out[topic] = map[int32]Committed{}
		}
		c := Committed{Offset: offset, Err: kerr.ErrorForCode(code)}
		if md != nil {
			c.Metadata = *md
		}
		out[topic][p] = c
	}
	if len(resp.Groups) > 0 {
		g := resp.Groups[0]
		if err := kerr.ErrorForCode(g.ErrorCode); err != nil {
			return nil, fmt.Errorf("group %s: %w", group, err)
		}
		for _, t := range g.Topics {
			for _, p := range t.Partitions {
				put(t.Topic, p.Partition, p.Offset, p.Metadata, p.ErrorCode)
			}
		}
	} else {
		if err := kerr.ErrorForCode(resp.ErrorCode); err != nil {
			return nil, fmt.Errorf("group %s: %w", group, err)
		}
		for _, t := range resp.Topics {
			for _, p := range t.Partitions {
				put(t.Topic, p.Partition, p.Offset, p.Metadata, p.ErrorCode)
			}
		}
	}
	// Every partition asked for is answered: with no committed offset
	// when the broker says nothing of it.
	for topic, ps := range parts {
		for _, p := range ps {
			if _, ok := out[topic][p]; !ok {
				put(topic, p, -1, nil, 0)
			}
		}
	}
	return out, nil
}
