// Package joins holds two join topologies, each the twin of a Kafka Streams
// application built with the same calls.
//
// The first (StreamTableName) enriches a stream of events with a table of
// the same keys, both as an inner and as a left join:
//
//	stream(input) ─┬─ join(table(table))      "inner:" + v + "+" + row → output
//	               └─ leftJoin(table(table))  "left:" + v + "+" + row  → output (Joined "enrich-left")
//
// The table is not materialized by its own call: the joins need to look it
// up, so it is materialized in the store it drew (<table>-STATE-STORE-
// 0000000001), with a changelog, as Kafka Streams does.
//
// The second (TableTableName) joins two tables three ways, each written
// with toStream to output:
//
//	table(input) ⋈ table(right, "tables-right")
//	  join       "inner:" + l + "+" + r, materialized as "tables-inner"
//	  leftJoin   "left:" + l + "+" + r
//	  outerJoin  "outer:" + l + "+" + r, Named "tables-outer", an unnamed Materialized
//
// The third (DerivedName) joins a stream with tables that have no store of
// their own, which the joins read through value getters:
//
//	stream(input) ─┬─ join(table(table).filter(not "-…").mapValues(upper))  "derived:" + v + "+" + row
//	               ├─ groupByKey().count() (its store is the table)
//	               └─ leftJoin(that count)                                   "count:" + v + "+" + n
//
// The filter and mapValues compute a row from the source table's store,
// which the join materializes; the count's own store holds its rows.
//
// The fourth (RekeyedName) joins a re-keyed stream: the key is the value up
// to its first ':', so the stream goes through a repartition topic first.
// The first join is named (Joined "by-user": by-user-repartition); the
// second, unnamed, reuses that repartition, as Kafka Streams does for a
// join under the stream's own name:
//
//	stream(input).selectKey(user) ─┬─ join(table(table), "by-user")  "inner:" + v + "+" + row
//	                               └─ leftJoin(table(table))          "left:" + v + "+" + row
//
// The fifth (WindowedName) joins windowed tables: the counts of two streams
// in ten-second tumbling windows, and in sessions of five seconds'
// inactivity, each pair joined on the windowed key and written as
// "t:key@start" and "s:key@start-end" with "a=<n>,b=<m>":
//
//	count(input) per window ⋈ count(right) per window
//	count(input) per session ⟕ count(right) per session (left join: "b=null" where b has no such session)
//
// The sixth (SplitName) joins a stream with a table and two tables over one
// topic, as the migration tests need: values "T…" are a table's rows
// (toTable, materialized as SplitStore), values "S…" are looked up in it,
// as a left and as an inner join, and values "U…" are the rows of a second
// table (SplitOtherStore) that the first joins (materialized as
// SplitJoinedStore). One sub-topology reads everything, so the results
// follow the topic's order alone:
//
//	stream(input) ─┬─ filter("T…").toTable("split-rows") ─┐
//	               ├─ filter("S…") ─┬─ leftJoin ──────────┤ "left:" + v + "+" + row
//	               │                └─ join ──────────────┤ "inner:" + v + "+" + row
//	               └─ filter("U…").toTable("split-other") ─ join(split-rows) "tables:" + row + "+" + other
//
// A missing row is written "null", as Java's string concatenation does; a
// deleted join result is a tombstone. Keys and values are Strings (the count
// is a Long).
package joins

import (
	"strconv"
	"strings"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// The stoatflow.topology values of the topologies.
const (
	StreamTableName = "streamtablejoin"
	TableTableName  = "tabletablejoin"
	DerivedName     = "derivedtablejoin"
	RekeyedName     = "rekeyedtablejoin"
	WindowedName    = "windowedtablejoin"
	SplitName       = "splittablejoin"
)

// The stores of the SplitName topology.
const (
	SplitStore       = "split-rows"
	SplitOtherStore  = "split-other"
	SplitJoinedStore = "split-joined"
)

// Stores and processor names of the table-table topology.
const (
	RightStore = "tables-right"
	InnerStore = "tables-inner"
	OuterName  = "tables-outer"
	// LeftJoinName names the stream-table left join.
	LeftJoinName = "enrich-left"
	// ByUserName names the first join of the re-keyed stream.
	ByUserName = "by-user"
)

func arg(args map[string]string, name, dflt string) string {
	if v := args[name]; v != "" {
		return v
	}
	return dflt
}

// orNull is Java's string concatenation of a possibly missing value.
func orNull(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}

var stringsIn = kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})

func produced() kstreams.Produced[string, string] {
	return kstreams.ProducedWith[string, string](serde.String{}, serde.String{})
}

// BuildStreamTable returns the stream-table topology. Arguments: input (the
// stream), table and output.
func BuildStreamTable(args map[string]string) (*kstreams.Topology, error) {
	b := kstreams.NewStreamsBuilder()
	events := kstreams.Stream(b, []string{arg(args, "input", "joins-stream")}, stringsIn)
	rows := kstreams.Table(b, arg(args, "table", "joins-table"), stringsIn)
	output := arg(args, "output", "joins-output")
	kstreams.StreamTableJoin(events, rows, func(_, v, row string) string { return "inner:" + v + "+" + row }).
		To(output, produced())
	kstreams.StreamTableLeftJoin(events, rows, func(_, v string, row *string) string { return "left:" + v + "+" + orNull(row) },
		kstreams.Joined[string, string]{Name: LeftJoinName}).
		To(output, produced())
	return b.Build()
}

// BuildSplit returns the one-topic stream-table topology. Arguments: input
// and output.
func BuildSplit(args map[string]string) (*kstreams.Topology, error) {
	b := kstreams.NewStreamsBuilder()
	in := kstreams.Stream(b, []string{arg(args, "input", "splitjoin-input")}, stringsIn)
	output := arg(args, "output", "splitjoin-output")
	rows := in.Filter(func(_, v string) bool { return strings.HasPrefix(v, "T") }).
		ToTable(kstreams.MaterializedAs[string, string](SplitStore))
	events := in.Filter(func(_, v string) bool { return strings.HasPrefix(v, "S") })
	kstreams.StreamTableLeftJoin(events, rows, func(_, v string, row *string) string { return "left:" + v + "+" + orNull(row) }).
		To(output, produced())
	kstreams.StreamTableJoin(events, rows, func(_, v, row string) string { return "inner:" + v + "+" + row }).
		To(output, produced())
	other := in.Filter(func(_, v string) bool { return strings.HasPrefix(v, "U") }).
		ToTable(kstreams.MaterializedAs[string, string](SplitOtherStore))
	kstreams.TableTableJoin(rows, other, func(row, o string) string { return "tables:" + row + "+" + o },
		kstreams.MaterializedAs[string, string](SplitJoinedStore)).
		ToStream().To(output, produced())
	return b.Build()
}

// BuildTableTable returns the table-table topology. Arguments: input (the
// left table), right and output.
func BuildTableTable(args map[string]string) (*kstreams.Topology, error) {
	b := kstreams.NewStreamsBuilder()
	left := kstreams.Table(b, arg(args, "input", "joins-left"), stringsIn)
	right := kstreams.Table(b, arg(args, "right", "joins-right"), stringsIn, kstreams.MaterializedAs[string, string](RightStore))
	output := arg(args, "output", "joins-output")
	kstreams.TableTableJoin(left, right, func(l, r string) string { return "inner:" + l + "+" + r },
		kstreams.MaterializedAs[string, string](InnerStore)).
		ToStream().To(output, produced())
	kstreams.TableTableLeftJoin(left, right, func(l string, r *string) string { return "left:" + l + "+" + orNull(r) }).
		ToStream().To(output, produced())
	kstreams.TableTableOuterJoin(left, right, func(l, r *string) string { return "outer:" + orNull(l) + "+" + orNull(r) },
		kstreams.Named(OuterName), kstreams.Materialized[string, string]{KeySerde: serde.String{}, ValueSerde: serde.String{}}).
		ToStream().To(output, produced())
	return b.Build()
}

// BuildDerived returns the topology of joins over derived tables.
// Arguments: input (the stream), table and output.
func BuildDerived(args map[string]string) (*kstreams.Topology, error) {
	b := kstreams.NewStreamsBuilder()
	events := kstreams.Stream(b, []string{arg(args, "input", "joins-stream")}, stringsIn)
	rows := kstreams.Table(b, arg(args, "table", "joins-table"), stringsIn)
	output := arg(args, "output", "joins-output")
	kept := rows.Filter(func(_, v string) bool { return !strings.HasPrefix(v, "-") })
	upper := kstreams.MapTableValues(kept, func(_, v string) string { return strings.ToUpper(v) })
	kstreams.StreamTableJoin(events, upper, func(_, v, row string) string { return "derived:" + v + "+" + row }).
		To(output, produced())
	counts := events.GroupByKey().Count()
	kstreams.StreamTableLeftJoin(events, counts, func(_, v string, n *int64) string {
		if n == nil {
			return "count:" + v + "+null"
		}
		return "count:" + v + "+" + strconv.FormatInt(*n, 10)
	}).To(output, produced())
	return b.Build()
}

// BuildRekeyed returns the topology of joins over a re-keyed stream.
// Arguments: input (the stream), table and output.
func BuildRekeyed(args map[string]string) (*kstreams.Topology, error) {
	b := kstreams.NewStreamsBuilder()
	events := kstreams.Stream(b, []string{arg(args, "input", "joins-stream")}, stringsIn)
	rows := kstreams.Table(b, arg(args, "table", "joins-table"), stringsIn)
	output := arg(args, "output", "joins-output")
	byUser := kstreams.SelectKey(events, func(_, v string) string { user, _, _ := strings.Cut(v, ":"); return user })
	kstreams.StreamTableJoin(byUser, rows, func(_, v, row string) string { return "inner:" + v + "+" + row },
		kstreams.Joined[string, string]{Name: ByUserName}).
		To(output, produced())
	kstreams.StreamTableLeftJoin(byUser, rows, func(_, v string, row *string) string { return "left:" + v + "+" + orNull(row) }).
		To(output, produced())
	return b.Build()
}

// BuildWindowed returns the topology of joins over windowed tables.
// Arguments: input, right and output.
func BuildWindowed(args map[string]string) (*kstreams.Topology, error) {
	b := kstreams.NewStreamsBuilder()
	a := kstreams.Stream(b, []string{arg(args, "input", "joins-a")}, stringsIn).GroupByKey()
	o := kstreams.Stream(b, []string{arg(args, "right", "joins-b")}, stringsIn).GroupByKey()
	output := arg(args, "output", "joins-output")
	counts := func(n, m int64) string { return "a=" + strconv.FormatInt(n, 10) + ",b=" + strconv.FormatInt(m, 10) }
	tumbling := kstreams.TimeWindowsOfSizeWithNoGrace(10 * time.Second)
	timed := kstreams.TableTableJoin(kstreams.WindowedBy(a, tumbling).Count(), kstreams.WindowedBy(o, tumbling).Count(), counts)
	kstreams.Map(timed.ToStream(), func(k kstreams.Windowed[string], v string) (string, string) {
		return "t:" + k.Key + "@" + strconv.FormatInt(k.Window.Start, 10), v
	}).To(output, produced())
	gap := kstreams.SessionWindowsOfInactivityGapWithNoGrace(5 * time.Second)
	sessions := kstreams.TableTableLeftJoin(kstreams.WindowedBySession(a, gap).Count(), kstreams.WindowedBySession(o, gap).Count(),
		func(n int64, m *int64) string {
			if m == nil {
				return "a=" + strconv.FormatInt(n, 10) + ",b=null"
			}
			return counts(n, *m)
		})
	kstreams.Map(sessions.ToStream(), func(k kstreams.Windowed[string], v string) (string, string) {
		return "s:" + k.Key + "@" + strconv.FormatInt(k.Window.Start, 10) + "-" + strconv.FormatInt(k.Window.End, 10), v
	}).To(output, produced())
	return b.Build()
}
