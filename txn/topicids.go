package txn

import (
	"context"
	"fmt"
	"sync"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// topicIDs caches the ids of the topics whose offsets a thread commits:
// OffsetCommit from v10 and TxnOffsetCommit from v6 name topics by id.
// A topic keeps its id for its lifetime; a recreated topic gets a new one,
// which a commit then refuses (UNKNOWN_TOPIC_ID), and the cache forgets.
type topicIDs struct {
	mu sync.Mutex
	m  map[string][16]byte
}

func (c *topicIDs) lookup(ctx context.Context, cl *kgo.Client, offsets []Offset) (map[string][16]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string][16]byte{}
	}
	var missing []string
	seen := map[string]bool{}
	for _, o := range offsets {
		if _, ok := c.m[o.Topic]; !ok && !seen[o.Topic] {
			missing = append(missing, o.Topic)
			seen[o.Topic] = true
		}
	}
	if len(missing) > 0 {
		md, err := kadm.NewClient(cl).Metadata(ctx, missing...)
		if err != nil {
			return nil, fmt.Errorf("topic ids of %v: %w", missing, err)
		}
		for _, t := range missing {
			d, ok := md.Topics[t]
			if !ok || d.Err != nil {
				return nil, fmt.Errorf("topic id of %s: %v", t, d.Err)
			}
			c.m[t] = d.ID
		}
	}
	return c.m, nil
}

func (c *topicIDs) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = nil
}
