// Package cogroup aggregates three streams of user activity into one
// summary per user, the way Kafka Streams runs the same calls:
//
//	clicks (input), views and purchases (keyed by order, value "user:amount",
//	re-keyed by user, so repartitioned)
//	  → cogroup: one click, view and spend aggregator each
//	      → aggregate "clicks/views/spent", materialized as "cogroup-activity"
//	        (the purchases repartition through cogroup-activity-repartition) → output
//	      → the same cogroup over 10 s windows with a 5 s grace, named
//	        "windowed-activity", store and repartition topic generated
//	        → "windowStart=clicks/views/spent" by user → output-windowed
//
// Arguments: input, views, purchases and output. Keys and values are
// Strings.
package cogroup

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology.
const Name = "cogroup"

// ActivityStore is the store of the key-value cogroup; its changelog is
// <application.id>-cogroup-activity-changelog.
const ActivityStore = "cogroup-activity"

// activity is the aggregate "clicks/views/spent".
type activity struct{ clicks, views, spent int }

func parse(agg string) activity {
	var a activity
	parts := strings.Split(agg, "/")
	if len(parts) == 3 {
		a.clicks, _ = strconv.Atoi(parts[0])
		a.views, _ = strconv.Atoi(parts[1])
		a.spent, _ = strconv.Atoi(parts[2])
	}
	return a
}

func (a activity) String() string { return fmt.Sprintf("%d/%d/%d", a.clicks, a.views, a.spent) }

func none() string { return "0/0/0" }

func click(_, _ string, agg string) string {
	a := parse(agg)
	a.clicks++
	return a.String()
}

func view(_, _ string, agg string) string {
	a := parse(agg)
	a.views++
	return a.String()
}

func spend(_, amount string, agg string) string {
	a := parse(agg)
	n, _ := strconv.Atoi(amount)
	a.spent += n
	return a.String()
}

// Build returns the topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	arg := func(name, dflt string) string {
		if v := args[name]; v != "" {
			return v
		}
		return dflt
	}
	input, views, purchases := arg("input", "cogroup-clicks"), arg("views", "cogroup-views"), arg("purchases", "cogroup-purchases")
	output := arg("output", "cogroup-output")
	s := serde.String{}
	b := kstreams.NewStreamsBuilder()
	consumed := kstreams.ConsumedWith[string, string](s, s)
	clicks := kstreams.Stream(b, []string{input}, consumed).GroupByKey()
	seen := kstreams.Stream(b, []string{views}, consumed).GroupByKey()
	spent := kstreams.Map(kstreams.Stream(b, []string{purchases}, consumed), func(_, v string) (string, string) {
		user, amount, _ := strings.Cut(v, ":")
		return user, amount
	}).GroupByKey(kstreams.Grouped[string, string]{KeySerde: s, ValueSerde: s})
	all := func() *kstreams.CogroupedKStream[string, string] {
		return kstreams.CogroupWith(kstreams.CogroupWith(kstreams.Cogroup(clicks, click), seen, view), spent, spend)
	}
	all().Aggregate(none, kstreams.Materialized[string, string]{Name: ActivityStore, ValueSerde: s}).
		ToStream().To(output, kstreams.ProducedWith[string, string](s, s))
	windowed := all().WindowedBy(kstreams.TimeWindowsOfSizeAndGrace(10*time.Second, 5*time.Second)).
		Aggregate(none, kstreams.Named("windowed-activity"), kstreams.Materialized[string, string]{KeySerde: s, ValueSerde: s})
	kstreams.Map(windowed.ToStream(), func(w kstreams.Windowed[string], v string) (string, string) {
		return w.Key, strconv.FormatInt(w.Window.Start, 10) + "=" + v
	}).To(output+"-windowed", kstreams.ProducedWith[string, string](s, s))
	return b.Build()
}
