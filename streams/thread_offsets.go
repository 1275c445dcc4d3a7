package streams

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/internal/groupoffsets"
	"github.com/stoatflow/stoatflow/kstreams"
)

// resetPolicy is where a partition of topic without a committed offset
// starts: as its source's offset reset policy says, else as
// auto.offset.reset does (Kafka Streams' StreamThread.resetOffsets).
func (t *streamThread) resetPolicy(topic string) (policy string, d time.Duration) {
	if r, ok := t.sources.OffsetReset(topic); ok {
		return r.Policy()
	}
	return t.s.cfg.AutoOffsetReset(), 0
}

// startOffsets is franz-go's AdjustFetchOffsetsFn: the group's committed
// offsets stand; a partition without one starts where its reset policy
// says (by_duration at the first record since now minus the duration).
// Partitions whose policy is none leave Kafka Streams' error for the loop.
func (t *streamThread) startOffsets(_ context.Context, offsets map[string]map[int32]kgo.Offset) (map[string]map[int32]kgo.Offset, error) {
	var none []string
	now := time.Now()
	for topic, parts := range offsets {
		for p, o := range parts {
			if o.EpochOffset().Offset >= 0 {
				continue // committed
			}
			switch policy, d := t.resetPolicy(topic); policy {
			case "earliest":
				parts[p] = kgo.NewOffset().AtStart()
			case "latest":
				parts[p] = kgo.NewOffset().AtEnd()
			case "by_duration":
				parts[p] = kgo.NewOffset().AfterMilli(now.Add(-d).UnixMilli())
			default:
				if !slices.Contains(none, topic) {
					none = append(none, topic)
				}
			}
		}
	}
	if err := noResetPolicy(none); err != nil {
		err = fmt.Errorf("streams: %w", err)
		t.resetErr.Store(&err)
	}
	return offsets, nil
}

// noResetPolicy is Kafka Streams' error for the topics whose partitions
// have no committed offset and no reset policy, or nil for none.
func noResetPolicy(topics []string) error {
	if len(topics) == 0 {
		return nil
	}
	slices.Sort(topics)
	return errors.New(kstreams.NoValidOffsetMessage(strings.Join(topics, ",")))
}

// resetOffsets resolves the reset policy of partitions without a
// committed offset (resetPolicy): their log start (earliest, Kafka Streams'
// default), their end (latest), or the first offset since now minus the
// duration (by_duration). A partition whose policy is none is Kafka
// Streams' error.
func (t *streamThread) resetOffsets(parts []tpKey) (map[tpKey]int64, error) {
	type policyKey struct {
		policy string
		d      time.Duration
	}
	byPolicy := map[policyKey][]string{}
	var none []string
	for _, tp := range parts {
		policy, d := t.resetPolicy(tp.topic)
		k := policyKey{policy, d}
		switch {
		case policy != "earliest" && policy != "latest" && policy != "by_duration":
			if !slices.Contains(none, tp.topic) {
				none = append(none, tp.topic)
			}
		case !slices.Contains(byPolicy[k], tp.topic):
			byPolicy[k] = append(byPolicy[k], tp.topic)
		}
	}
	if err := noResetPolicy(none); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(t.ctx, watermarksWait)
	defer cancel()
	adm := kadm.NewClient(t.consumer)
	out := map[tpKey]int64{}
	for k, names := range byPolicy {
		var listed kadm.ListedOffsets
		var err error
		switch k.policy {
		case "latest":
			listed, err = t.listEnds(ctx, adm, names)
		case "by_duration":
			listed, err = adm.ListOffsetsAfterMilli(ctx, time.Now().Add(-k.d).UnixMilli(), names...)
		default:
			listed, err = adm.ListStartOffsets(ctx, names...)
		}
		if err != nil {
			return nil, err
		}
		for _, tp := range parts {
			if !slices.Contains(names, tp.topic) {
				continue
			}
			o, ok := listed.Lookup(tp.topic, tp.partition)
			if !ok || o.Err != nil {
				return nil, fmt.Errorf("%s [%d]: no offset listed: %v", tp.topic, tp.partition, o.Err)
			}
			out[tp] = o.Offset
		}
	}
	return out, nil
}

// committedOffsetsWait bounds how long a rewind waits for the group's
// committed offsets: the group coordinator may be loading or moving (after a
// broker restart, typically), which passes; the thread does not poll
// meanwhile, so the bound stays well under max.poll.interval.ms' default.
const committedOffsetsWait = 2 * time.Minute

// committedOffset is a partition's committed offset (-1 for none) and its
// metadata.
type committedOffset struct {
	tp       tpKey
	offset   int64
	metadata string
}

// committedOffsets reads the group's committed offsets of parts (under
// exactly_once_v2 stable ones only: a transaction still completing makes
// the broker answer later, never with the offset before it), retrying until
// committedOffsetsWait has passed or the thread's context ends, unless the
// error is final.
func (t *streamThread) committedOffsets(parts []tpKey) ([]committedOffset, error) {
	defer t.doing("reading the group's committed offsets")()
	deadline := time.Now().Add(committedOffsetsWait)
	want := map[string][]int32{}
	for _, tp := range parts {
		want[tp.topic] = append(want[tp.topic], tp.partition)
	}
	names := slices.Sorted(maps.Keys(want))
	began := time.Now()
	var unstableSince time.Time
	for {
		ctx, cancel := context.WithTimeout(t.ctx, min(10*time.Second, max(time.Until(deadline), time.Millisecond)))
		// Only these partitions' offsets, as Kafka's consumer asks for
		// them: an open transaction holding another partition's offset
		// (another instance's next commit) does not hold this one up.
		resp, err := groupoffsets.Fetch(ctx, t.consumer, t.s.cfg.ApplicationID, want, t.s.cfg.ExactlyOnce())
		cancel()
		// A partition can fail on its own (an offset commit of a
		// transaction that is still completing: UNSTABLE_OFFSET_COMMIT);
		// its offset is then no offset at all, never "from the start".
		if err == nil {
			err = resp.Err()
		}
		if err == nil {
			out := make([]committedOffset, 0, len(parts))
			for _, tp := range parts {
				o := resp[tp.topic][tp.partition]
				out = append(out, committedOffset{tp: tp, offset: o.Offset, metadata: o.Metadata})
			}
			if !unstableSince.IsZero() {
				t.log.Info("the open transaction holding the group's offsets has completed; taking them over",
					"group", t.s.cfg.ApplicationID, "waited", time.Since(unstableSince).Round(time.Millisecond))
			}
			return out, nil
		}
		if t.ctx.Err() != nil {
			return nil, fmt.Errorf("committed offsets: %w; gave up: %w", err, context.Cause(t.ctx))
		}
		unstable := errors.Is(err, kerr.UnstableOffsetCommit)
		var ke *kerr.Error
		if errors.As(err, &ke) && !ke.Retriable && !unstable {
			return nil, fmt.Errorf("committed offsets: %w", err)
		}
		if time.Now().After(deadline) {
			if unstable {
				return nil, fmt.Errorf("committed offsets: still held by an open transaction after %v (a transactional producer "+
					"stopped mid-transaction and its transaction.timeout.ms is longer than that; wait for the broker to abort it, "+
					"then start again): %w", time.Since(began).Round(time.Second), err)
			}
			return nil, fmt.Errorf("committed offsets: %w", err)
		}
		switch {
		case unstable && unstableSince.IsZero():
			// Under exactly_once_v2 the offsets come with the transaction
			// that consumed them: an instance of the application (Kafka
			// Streams or StoatFlow, with its own transactional.id) that
			// stopped mid-transaction leaves offsets pending that are
			// neither committed nor aborted yet. Taking the older ones
			// would replay what that transaction may still commit; so
			// nothing is consumed until the coordinator completes it, or
			// aborts it once its transaction.timeout.ms has passed.
			unstableSince = time.Now()
			t.log.Warn("waiting for an open transaction that holds the group's offset commits: nothing is consumed until "+
				"it completes, is fenced (its process is no longer in the group), or the broker aborts it when its "+
				"transaction.timeout.ms has passed (an instance of the application stopped mid-transaction)", "group", t.s.cfg.ApplicationID, "topics", names, "err", err)
		case unstable:
			t.log.Debug("offset commits still held by an open transaction", "group", t.s.cfg.ApplicationID,
				"waited", time.Since(unstableSince).Round(time.Second))
		default:
			t.log.Warn("reading committed offsets; retrying", "err", err)
		}
		retry := time.Second
		if unstable {
			if n, _ := t.s.fenceAbandoned(t.ctx, t.consumer, "the group's offset commits"); n > 0 {
				retry = 100 * time.Millisecond
			}
		}
		select {
		case <-t.ctx.Done():
			return nil, fmt.Errorf("committed offsets: %w; gave up: %w", err, context.Cause(t.ctx))
		case <-time.After(retry):
		}
	}
}

// restorePartitionTime sets a partition's time from its committed offset's
// metadata, as Kafka Streams initializes a task's partition times; without
// metadata the partition time is unknown.
func (t *streamThread) restorePartitionTime(p committedOffset) {
	a := t.byTP[p.tp]
	if a == nil {
		return
	}
	ts := int64(-1)
	if p.offset >= 0 && p.metadata != "" {
		if v, md, ok := decodeCommitMetadata(p.metadata); ok {
			ts = v
			a.metadata = kstreams.MergeMetadata(a.metadata, md)
		}
	}
	for _, q := range a.queues {
		if q.tp == p.tp {
			q.partTime, q.committedPartTime, q.startAt = ts, ts, p.offset
		}
	}
	if a.task != nil {
		a.task.SetPartitionTime(p.tp.topic, ts)
		a.task.MergeProcessorMetadata(a.metadata)
	}
}

// decodeCommitMetadata reads committed-offset metadata written by
// encodeCommitMetadata or by Kafka Streams (TopicPartitionMetadata): magic
// byte 1 and the partition time, or magic byte 2, the partition time and
// the processor metadata (a count, then per entry the key's length, the
// key in UTF-8 and the value, all big-endian), none when nothing follows
// the time.
func decodeCommitMetadata(md string) (int64, map[string]int64, bool) {
	b, err := base64.StdEncoding.DecodeString(md)
	if err != nil || len(b) < 9 || (b[0] != 1 && b[0] != 2) {
		return 0, nil, false
	}
	ts := int64(binary.BigEndian.Uint64(b[1:9]))
	rest := b[9:]
	if b[0] == 1 || len(rest) == 0 {
		return ts, nil, true
	}
	// Kafka Streams keeps the partition time when the processor metadata
	// after it is unreadable; so does this, with no processor metadata.
	bad := func() (int64, map[string]int64, bool) { return ts, nil, true }
	if len(rest) < 4 {
		return bad()
	}
	n := int(int32(binary.BigEndian.Uint32(rest)))
	rest = rest[4:]
	if n < 0 || n > len(rest)/12 {
		return bad()
	}
	out := make(map[string]int64, n)
	for range n {
		if len(rest) < 4 {
			return bad()
		}
		kl := int(int32(binary.BigEndian.Uint32(rest)))
		rest = rest[4:]
		if kl < 0 || len(rest) < kl+8 {
			return bad()
		}
		out[string(rest[:kl])] = int64(binary.BigEndian.Uint64(rest[kl:]))
		rest = rest[kl+8:]
	}
	return ts, out, true
}

// encodeCommitMetadata is Kafka Streams' committed-offset metadata
// (TopicPartitionMetadata, magic byte 2): base64 of the magic byte, the
// partition time and the processor metadata (nothing when there is none),
// so a JVM instance taking over the group reads both back. Keys are written
// in sorted order (Kafka Streams writes its map's order; readers do not
// depend on it).
func encodeCommitMetadata(partTime int64, md map[string]int64) string {
	b := make([]byte, 9, 9+len(md)*24)
	b[0] = 2
	binary.BigEndian.PutUint64(b[1:], uint64(partTime))
	if len(md) > 0 {
		b = binary.BigEndian.AppendUint32(b, uint32(len(md)))
		for _, k := range slices.Sorted(maps.Keys(md)) {
			b = binary.BigEndian.AppendUint32(b, uint32(len(k)))
			b = append(b, k...)
			b = binary.BigEndian.AppendUint64(b, uint64(md[k]))
		}
	}
	return base64.StdEncoding.EncodeToString(b)
}
