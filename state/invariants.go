package state

import (
	"github.com/stoatflow/stoatflow/internal/invariants"
	"github.com/stoatflow/stoatflow/internal/overlay"
)

// The assertions below run only under the invariants build tag (see
// internal/invariants).

// checkNoWriteDuring runs at the end of a commit, before the overlay is
// emptied: the overlay must still be the snapshot the commit wrote. A write
// that arrived meanwhile (a second writer, against the one-writer rule)
// would be dropped by the reset without ever reaching the store.
func (c *core) checkNoWriteDuring(op string, snap *overlay.Snapshot) {
	var bytes int64
	snap.Ascend(nil, nil, func(e overlay.Entry) bool {
		bytes += e.Size()
		return true
	})
	if n, b := c.ov.Len(), c.ov.Bytes(); n != snap.Len() || b != bytes {
		invariants.Failf("state: store %s: %d uncommitted entries (%d bytes) at the end of its %s, %d (%d bytes) when it began: a write raced with it",
			c.name, n, b, op, snap.Len(), bytes)
	}
}

// checkOverlayEmpty runs after a commit or rollback: nothing uncommitted is
// left, and the store's share of its budget is back to zero.
func (c *core) checkOverlayEmpty(op string) {
	if n, b := c.ov.Len(), c.ov.Bytes(); n != 0 || b != 0 {
		invariants.Failf("state: store %s: overlay holds %d entries (%d bytes) after its %s", c.name, n, b, op)
	}
}

// checkRestoreOffset runs before a restore batch is applied: restore reads
// the changelog from the store's offset + 1 on, so the batch's last offset
// is past the durable one. One at or below it would replay records the
// store already holds, or move its offset back.
func (c *core) checkRestoreOffset(tp TopicPartition, lastOffset int64) {
	durable, ok, err := c.base.CommittedOffset(tp)
	if err != nil || !ok {
		return
	}
	if lastOffset <= durable {
		invariants.Failf("state: store %s: restore batch of changelog %s ends at offset %d, not past the store's offset %d",
			c.name, tp, lastOffset, durable)
	}
}
