package kstreams

import (
	"fmt"
	"time"
)

// AutoOffsetReset is a source's offset reset policy, Kafka's
// AutoOffsetReset (Consumed.withOffsetResetPolicy, Topology.addSource):
// where a partition of the source's topics starts when the group has no
// committed offset for it. It wins over the application's
// auto.offset.reset for those topics. The zero value sets no policy.
type AutoOffsetReset struct {
	kind     offsetResetKind
	duration time.Duration
}

type offsetResetKind int

const (
	offsetResetUnset offsetResetKind = iota
	offsetResetEarliest
	offsetResetLatest
	offsetResetNone
	offsetResetByDuration
)

// OffsetResetEarliest is AutoOffsetReset.earliest(): from the log start.
func OffsetResetEarliest() AutoOffsetReset { return AutoOffsetReset{kind: offsetResetEarliest} }

// OffsetResetLatest is AutoOffsetReset.latest(): from the log end.
func OffsetResetLatest() AutoOffsetReset { return AutoOffsetReset{kind: offsetResetLatest} }

// OffsetResetNone is AutoOffsetReset.none(): a partition without a
// committed offset is an error that stops the thread, with Kafka Streams'
// message.
func OffsetResetNone() AutoOffsetReset { return AutoOffsetReset{kind: offsetResetNone} }

// OffsetResetByDuration is AutoOffsetReset.byDuration(d): from the first
// record whose timestamp is at most d before the time of the reset. A
// negative d is refused when the topology is built, as Kafka refuses it.
func OffsetResetByDuration(d time.Duration) AutoOffsetReset {
	return AutoOffsetReset{kind: offsetResetByDuration, duration: d}
}

// IsSet reports whether r names a policy.
func (r AutoOffsetReset) IsSet() bool { return r.kind != offsetResetUnset }

// Policy returns the policy as auto.offset.reset writes it: "earliest",
// "latest", "none" or "by_duration", with the duration of the last.
func (r AutoOffsetReset) Policy() (name string, d time.Duration) {
	switch r.kind {
	case offsetResetEarliest:
		return "earliest", 0
	case offsetResetLatest:
		return "latest", 0
	case offsetResetNone:
		return "none", 0
	case offsetResetByDuration:
		return "by_duration", r.duration
	}
	return "", 0
}

func (r AutoOffsetReset) check() error {
	if r.kind == offsetResetByDuration && r.duration < 0 {
		return errIllegalArgument("Duration cannot be negative")
	}
	return nil
}

// NoValidOffsetMessage is Kafka Streams' StreamsException message for
// input topics whose partitions have no committed offset and no reset
// policy to start them by (the topic's is none, or there is none and
// auto.offset.reset is none).
func NoValidOffsetMessage(topics string) string {
	return fmt.Sprintf("No valid committed offset found for input [%s] and no valid reset policy configured. "+
		"You need to set configuration parameter \"auto.offset.reset\" or specify a topic specific reset policy via "+
		"StreamsBuilder#stream(..., Consumed.with(Topology.AutoOffsetReset)) or "+
		"StreamsBuilder#table(..., Consumed.with(Topology.AutoOffsetReset))", topics)
}

// OffsetReset returns the reset policy of the source that reads topic (a
// broker name), if it has one.
func (x *SourceIndex) OffsetReset(topic string) (AutoOffsetReset, bool) {
	if r, ok := x.resets[topic]; ok {
		return r, true
	}
	for _, ip := range x.patterns {
		if ip.reset.IsSet() && ip.p.matches(topic) {
			return ip.reset, true
		}
	}
	return AutoOffsetReset{}, false
}
