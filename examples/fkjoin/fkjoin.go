// Package fkjoin holds a foreign-key join topology, the twin of a Kafka
// Streams application built with the same calls.
//
// A left row "fk|payload" refers to the right row keyed fk; a value without
// '|', or with nothing before it, has a null foreign key. Two joins of the
// same tables are written with toStream, each to its own output topic (the
// results of the two joins for one update travel through different topics,
// so their relative order is not deterministic):
//
//	table(left) ⋈fk table(right)
//	  join      unnamed, materialized as "fk-inner"       "inner:" + l + "+" + r → output
//	  leftJoin  TableJoined "fk-left", extractor of key and value, not materialized
//	                                                      "left:" + l + "+" + r ("null" for no row) → left-output
//
// Both tables are materialized by the joins in the stores they drew. Each
// join has its subscription-registration topic (partitioned as right), its
// subscription store and its subscription-response topic (partitioned as
// left). A deleted or unmatched result is a tombstone. Keys and values are
// Strings.
package fkjoin

import (
	"strings"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology.
const Name = "fkjoin"

// Names of the stores and the named join.
const (
	InnerStore = "fk-inner"
	LeftName   = "fk-left"
)

func arg(args map[string]string, name, dflt string) string {
	if v := args[name]; v != "" {
		return v
	}
	return dflt
}

// ForeignKey is the foreign key of a left value: what comes before its
// first '|', none if that is empty or there is no '|'.
func ForeignKey(v string) (string, bool) {
	fk, _, found := strings.Cut(v, "|")
	if !found || fk == "" {
		return "", false
	}
	return fk, true
}

// Build returns the topology. Arguments: left, right, output and
// left-output.
func Build(args map[string]string) (*kstreams.Topology, error) {
	b := kstreams.NewStreamsBuilder()
	in := kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})
	left := kstreams.Table(b, arg(args, "left", "fkjoin-left"), in)
	right := kstreams.Table(b, arg(args, "right", "fkjoin-right"), in)
	output := arg(args, "output", "fkjoin-output")
	produced := kstreams.ProducedWith[string, string](serde.String{}, serde.String{})
	kstreams.TableForeignKeyJoin(left, right, ForeignKey, func(l, r string) string { return "inner:" + l + "+" + r },
		kstreams.MaterializedAs[string, string](InnerStore)).
		ToStream().To(output, produced)
	kstreams.TableForeignKeyLeftJoinWithKey(left, right, func(_, v string) (string, bool) { return ForeignKey(v) },
		func(l string, r *string) string {
			if r == nil {
				return "left:" + l + "+null"
			}
			return "left:" + l + "+" + *r
		}, kstreams.TableJoinedAs(LeftName)).
		ToStream().To(arg(args, "left-output", "fkjoin-left-output"), produced)
	return b.Build()
}

// CrashName is the name of the crash-test topology: one topic's records
// split by key into two tables, orders (keys "order-…", a value
// "fk|payload" naming its customer as ForeignKey reads it) and customers
// (keys "cust-…"), and the orders joined with their customers by foreign
// key. A result is order+"+"+customer; it is a tombstone when the order is
// deleted, loses its foreign key, or names a customer that does not exist.
// A tombstone in the input deletes a row of the table its key belongs to.
// Arguments: input and output.
const CrashName = "fkjoincrash"

// Names of the crash-test topology's join and stores.
const (
	CrashJoinName          = "fkcrash"
	CrashOrdersStore       = "fkcrash-orders"
	CrashCustomersStore    = "fkcrash-customers"
	CrashResultStore       = "fkcrash-result"
	CrashSubscriptionStore = CrashJoinName + "-subscription-store"
)

// BuildCrash returns the crash-test topology.
func BuildCrash(args map[string]string) (*kstreams.Topology, error) {
	b := kstreams.NewStreamsBuilder()
	// The Nullable view lets the split see tombstones, so that each goes to
	// the one table its key belongs to.
	in := kstreams.Nullable(kstreams.Stream(b, []string{arg(args, "input", "fkjoincrash-input")},
		kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})))
	table := func(prefix, store string) *kstreams.KTable[string, *string] {
		return in.Filter(func(k string, _ *string) bool { return strings.HasPrefix(k, prefix) }).
			ToTable(kstreams.MaterializedAs[string, *string](store))
	}
	orders, customers := table("order-", CrashOrdersStore), table("cust-", CrashCustomersStore)
	kstreams.TableForeignKeyJoin(orders, customers, func(v *string) (string, bool) { return ForeignKey(*v) },
		func(o, c *string) string { return *o + "+" + *c },
		kstreams.TableJoinedAs(CrashJoinName), kstreams.MaterializedAs[string, string](CrashResultStore)).
		ToStream().To(arg(args, "output", "fkjoincrash-output"), kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	return b.Build()
}
