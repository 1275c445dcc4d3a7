package topodiff

import (
	"regexp"
	"strconv"
	"strings"
)

// generatedName matches a name Kafka Streams generates: a prefix, the
// builder's counter as ten digits, and an optional suffix (a window store's
// "-store", a repartition topic's "-repartition", an FK-join topic's
// "-topic"). Kafka's own test for "generated" is KSTREAM.*-[0-9]{10}; the
// wider form also covers KTABLE-, COGROUPKSTREAM- and a table's
// "<topic>-STATE-STORE-" prefixes.
var generatedName = regexp.MustCompile(`^(.*-)([0-9]{10})((?:-[a-z]+)*)$`)

// generated splits a generated name into prefix, counter index and suffix.
func generated(name string) (prefix string, index int, suffix string, ok bool) {
	m := generatedName.FindStringSubmatch(name)
	if m == nil {
		return "", 0, "", false
	}
	i, err := strconv.Atoi(m[2])
	if err != nil {
		return "", 0, "", false
	}
	return m[1], i, m[3], true
}

// shiftOnly reports whether two generated names differ only in their index,
// and by how much (b's index minus a's).
func shiftOnly(a, b string) (int, bool) {
	pa, ia, sa, oka := generated(a)
	pb, ib, sb, okb := generated(b)
	if !oka || !okb || pa != pb || sa != sb || ia == ib {
		return 0, false
	}
	return ib - ia, true
}

// repartitionSuffixes are the names of the three nodes of a repartition
// whose topic is named (Grouped.as, Repartitioned.as, a named store).
var repartitionSuffixes = []string{"-repartition-sink", "-repartition-filter", "-repartition-source"}

// isRepartitionNode reports whether name is one of a named repartition's
// nodes; its name follows from the topic's.
func isRepartitionNode(name string) bool {
	for _, s := range repartitionSuffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// operators maps generated-name prefixes to the DSL operations that create
// them, for the report.
var operators = map[string]string{
	"KSTREAM-SOURCE-":           "stream()",
	"KSTREAM-SINK-":             "to()",
	"KSTREAM-FILTER-":           "filter()/filterNot()",
	"KSTREAM-MAP-":              "map()",
	"KSTREAM-MAPVALUES-":        "mapValues()",
	"KSTREAM-FLATMAP-":          "flatMap()",
	"KSTREAM-FLATMAPVALUES-":    "flatMapValues()",
	"KSTREAM-KEY-SELECT-":       "selectKey()/groupBy()",
	"KSTREAM-BRANCH-":           "split()",
	"KSTREAM-BRANCHCHILD-":      "split().branch()",
	"KSTREAM-MERGE-":            "merge()",
	"KSTREAM-PEEK-":             "peek()",
	"KSTREAM-PRINTER-":          "print()",
	"KSTREAM-FOREACH-":          "foreach()",
	"KSTREAM-PROCESSOR-":        "process()",
	"KSTREAM-PROCESSVALUES-":    "processValues()",
	"KSTREAM-REPARTITION-":      "repartition()",
	"KSTREAM-TOTABLE-":          "toTable()",
	"KSTREAM-AGGREGATE-":        "count()/aggregate()",
	"KSTREAM-REDUCE-":           "reduce()",
	"KSTREAM-JOIN-":             "join()",
	"KSTREAM-LEFTJOIN-":         "leftJoin()",
	"KSTREAM-WINDOWED-":         "join() (its window)",
	"KSTREAM-JOINTHIS-":         "join()",
	"KSTREAM-JOINOTHER-":        "join()",
	"KSTREAM-OUTERTHIS-":        "outerJoin()",
	"KSTREAM-OUTEROTHER-":       "outerJoin()",
	"KSTREAM-OUTERSHARED-":      "outerJoin()",
	"KSTREAM-MERGE-JOIN-":       "join()",
	"KTABLE-SOURCE-":            "table()",
	"KTABLE-SINK-":              "to()",
	"KTABLE-FILTER-":            "filter()/filterNot()",
	"KTABLE-MAPVALUES-":         "mapValues()",
	"KTABLE-TRANSFORMVALUES-":   "transformValues()",
	"KTABLE-SELECT-":            "groupBy()",
	"KTABLE-TOSTREAM-":          "toStream()",
	"KTABLE-SUPPRESS-":          "suppress()",
	"KTABLE-AGGREGATE-":         "count()/aggregate()",
	"KTABLE-REDUCE-":            "reduce()",
	"KTABLE-JOINTHIS-":          "join()",
	"KTABLE-JOINOTHER-":         "join()",
	"KTABLE-MERGE-":             "join()",
	"KTABLE-FK-JOIN-":           "join() (foreign key)",
	"COGROUPKSTREAM-AGGREGATE-": "cogroup().aggregate()",
	"COGROUPKSTREAM-MERGE-":     "cogroup().aggregate()",
}

// operatorOf names the DSL operation that generated name, or "" when the
// name is not a generated one.
func operatorOf(name string) string {
	p, _, _, ok := generated(name)
	if !ok {
		return ""
	}
	if op, ok := operators[p]; ok {
		return op
	}
	// Prefixes with a further generated part, such as
	// KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-: the longest known prefix.
	best := ""
	for k := range operators {
		if strings.HasPrefix(p, k) && len(k) > len(best) {
			best = k
		}
	}
	return operators[best]
}

// describeNode is "processor X (mapValues())" for the report.
func describeNode(n *Node) string {
	s := n.Kind.String() + " " + n.Name
	if op := operatorOf(n.Name); op != "" {
		s += " (" + op + ")"
	}
	return s
}

// namingOption is the option that names a node of the given kind in the DSL.
func namingOption(n *Node, name string) string {
	switch n.Kind {
	case Source:
		return `Consumed.as("` + name + `")`
	case Sink:
		return `Produced.as("` + name + `")`
	}
	return `Named.as("` + name + `")`
}
