// Package topodiff reads the text of Kafka Streams' TopologyDescription
// (describe().toString(), the format StoatFlow's Topology.Describe prints
// byte for byte) and compares two of them: a Kafka Streams application's and
// StoatFlow's. Where they differ it pairs the nodes of both graphs by their
// place in them, so that one extra or missing operator, which shifts every
// generated name after it, is reported as that one operator, with the names
// to give explicitly so that the Go topology keeps the application's stores
// and internal topics.
package topodiff

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Kind is a node's kind in a description.
type Kind int

// The node kinds of a TopologyDescription.
const (
	Source Kind = iota
	Processor
	Sink
)

// String returns the word describe() prints for the kind.
func (k Kind) String() string {
	switch k {
	case Source:
		return "source"
	case Processor:
		return "processor"
	case Sink:
		return "sink"
	}
	return "node"
}

// Node is one source, processor or sink of a description.
type Node struct {
	Kind Kind
	Name string
	// Topics are a source's topics, in printed order, or a sink's one topic.
	Topics []string
	// Pattern is the topic pattern of a source subscribed by pattern.
	Pattern string
	// Extractor is the printed TopicNameExtractor of a sink that chooses its
	// topic per record (the class name Java prints; not compared).
	Extractor string
	// Stores are a processor's state stores, in printed order.
	Stores       []string
	Successors   []string
	Predecessors []string
	// Line is the 1-based line of the node in its text.
	Line int
}

// Subtopology is one sub-topology, or one global store's (Global).
type Subtopology struct {
	ID     int
	Global bool
	// Nodes are in printed order.
	Nodes []*Node
	// Line is the 1-based line of the "Sub-topology:" header.
	Line int
}

// Description is a parsed TopologyDescription.
type Description struct {
	// Name is the named topology's name ("Topology: <name>:"), "" for
	// "Topologies:".
	Name          string
	Subtopologies []*Subtopology
}

// ErrSyntax is the class of every error Parse returns.
var ErrSyntax = errors.New("topodiff: not a Kafka Streams topology description")

// Parse reads a TopologyDescription text. Errors name the line and what was
// expected there, and match ErrSyntax.
func Parse(text string) (*Description, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	p := &parser{lines: lines}
	return p.parse()
}

type parser struct {
	lines []string
	i     int // index of the next line
}

func (p *parser) errorf(line int, format string, args ...any) error {
	return fmt.Errorf("%w: line %d: %s", ErrSyntax, line, fmt.Sprintf(format, args...))
}

// next returns the next non-blank line and its 1-based number, or ok=false
// at the end.
func (p *parser) next() (string, int, bool) {
	for p.i < len(p.lines) {
		l := strings.TrimRight(p.lines[p.i], " \t")
		p.i++
		if strings.TrimSpace(l) != "" {
			return l, p.i, true
		}
	}
	return "", p.i, false
}

// peek returns the next non-blank line without consuming it.
func (p *parser) peek() (string, bool) {
	save := p.i
	l, _, ok := p.next()
	p.i = save
	return l, ok
}

func (p *parser) parse() (*Description, error) {
	head, n, ok := p.next()
	if !ok {
		return nil, fmt.Errorf("%w: the text is empty", ErrSyntax)
	}
	d := &Description{}
	head = strings.TrimSpace(head)
	switch {
	case head == "Topologies:":
	case strings.HasPrefix(head, "Topology: ") && strings.HasSuffix(head, ":"):
		d.Name = strings.TrimSuffix(strings.TrimPrefix(head, "Topology: "), ":")
	default:
		return nil, p.errorf(n, "want \"Topologies:\" or \"Topology: <name>:\", found %q", head)
	}
	ids := map[int]bool{}
	for {
		l, n, ok := p.next()
		if !ok {
			break
		}
		t := strings.TrimSpace(l)
		rest, isSub := strings.CutPrefix(t, "Sub-topology: ")
		if !isSub {
			return nil, p.errorf(n, "want \"Sub-topology: <id>\", found %q", t)
		}
		st := &Subtopology{Line: n}
		if idText, ok := strings.CutSuffix(rest, " for global store (will not generate tasks)"); ok {
			st.Global, rest = true, idText
		}
		id, err := strconv.Atoi(rest)
		if err != nil || id < 0 {
			return nil, p.errorf(n, "sub-topology id %q is not a number", rest)
		}
		if ids[id] {
			return nil, p.errorf(n, "sub-topology %d appears twice", id)
		}
		ids[id] = true
		st.ID = id
		if err := p.nodes(st); err != nil {
			return nil, err
		}
		if len(st.Nodes) == 0 {
			return nil, p.errorf(n, "sub-topology %d has no nodes", id)
		}
		d.Subtopologies = append(d.Subtopologies, st)
	}
	return d, d.check()
}

// nodes reads the nodes of one sub-topology, up to the next header.
func (p *parser) nodes(st *Subtopology) error {
	for {
		l, ok := p.peek()
		if !ok || strings.HasPrefix(strings.TrimSpace(l), "Sub-topology: ") {
			return nil
		}
		l, n, _ := p.next()
		t := strings.TrimSpace(l)
		node := &Node{Line: n}
		var rest string
		switch {
		case strings.HasPrefix(t, "Source: "):
			node.Kind, rest = Source, strings.TrimPrefix(t, "Source: ")
		case strings.HasPrefix(t, "Processor: "):
			node.Kind, rest = Processor, strings.TrimPrefix(t, "Processor: ")
		case strings.HasPrefix(t, "Sink: "):
			node.Kind, rest = Sink, strings.TrimPrefix(t, "Sink: ")
		default:
			return p.errorf(n, "want a Source:, Processor: or Sink: line, found %q", t)
		}
		name, attr, ok := strings.Cut(rest, " (")
		if !ok || !strings.HasSuffix(attr, ")") || name == "" {
			return p.errorf(n, "want \"%s: <name> (...)\", found %q", kindTitle(node.Kind), t)
		}
		node.Name = name
		attr = strings.TrimSuffix(attr, ")")
		if err := p.attributes(node, attr, n); err != nil {
			return err
		}
		if err := p.edges(node); err != nil {
			return err
		}
		st.Nodes = append(st.Nodes, node)
	}
}

func kindTitle(k Kind) string {
	s := k.String()
	return strings.ToUpper(s[:1]) + s[1:]
}

// attributes reads the parenthesised part of a node line.
func (p *parser) attributes(node *Node, attr string, n int) error {
	switch node.Kind {
	case Source:
		v, ok := strings.CutPrefix(attr, "topics: ")
		if !ok {
			return p.errorf(n, "source %s: want \"(topics: [...])\", found %q", node.Name, "("+attr+")")
		}
		if list, ok := bracketList(v); ok {
			node.Topics = list
		} else {
			node.Pattern = v
		}
	case Processor:
		v, ok := strings.CutPrefix(attr, "stores: ")
		list, isList := bracketList(v)
		if !ok || !isList {
			return p.errorf(n, "processor %s: want \"(stores: [...])\", found %q", node.Name, "("+attr+")")
		}
		node.Stores = list
	case Sink:
		if v, ok := strings.CutPrefix(attr, "topic: "); ok {
			node.Topics = []string{v}
		} else if v, ok := strings.CutPrefix(attr, "extractor class: "); ok {
			node.Extractor = v
		} else {
			return p.errorf(n, "sink %s: want \"(topic: ...)\" or \"(extractor class: ...)\", found %q", node.Name, "("+attr+")")
		}
	}
	return nil
}

// edges reads the "-->" and "<--" lines that follow a node line: a source
// has successors only, a sink predecessors only, a processor both.
func (p *parser) edges(node *Node) error {
	want := []string{"-->", "<--"}
	switch node.Kind {
	case Source:
		want = want[:1]
	case Sink:
		want = want[1:]
	}
	for _, arrow := range want {
		l, n, ok := p.next()
		t := strings.TrimSpace(l)
		v, found := strings.CutPrefix(t, arrow+" ")
		if !ok {
			return p.errorf(node.Line, "%s %s: want a %q line after it, found the end of the text", node.Kind, node.Name, arrow)
		}
		if !found {
			return p.errorf(n, "%s %s: want a %q line, found %q", node.Kind, node.Name, arrow, t)
		}
		var names []string
		if v != "none" {
			names = strings.Split(v, ", ")
		}
		if arrow == "-->" {
			node.Successors = names
		} else {
			node.Predecessors = names
		}
	}
	return nil
}

// bracketList splits Java's AbstractCollection.toString form "[a, b]".
func bracketList(s string) ([]string, bool) {
	inner, ok := strings.CutPrefix(s, "[")
	if !ok {
		return nil, false
	}
	inner, ok = strings.CutSuffix(inner, "]")
	if !ok {
		return nil, false
	}
	if inner == "" {
		return []string{}, true
	}
	return strings.Split(inner, ", "), true
}

// check verifies what a well-formed description guarantees: unique node
// names, and edges that name nodes of the same sub-topology in both
// directions.
func (d *Description) check() error {
	seen := map[string]int{}
	for _, st := range d.Subtopologies {
		local := map[string]*Node{}
		for _, n := range st.Nodes {
			if line, dup := seen[n.Name]; dup {
				return fmt.Errorf("%w: line %d: node %s is also on line %d", ErrSyntax, n.Line, n.Name, line)
			}
			seen[n.Name] = n.Line
			local[n.Name] = n
		}
		for _, n := range st.Nodes {
			for _, s := range n.Successors {
				m, ok := local[s]
				if !ok || !slices.Contains(m.Predecessors, n.Name) {
					return fmt.Errorf("%w: line %d: %s %s has successor %s, which is not in sub-topology %d with it as predecessor",
						ErrSyntax, n.Line, n.Kind, n.Name, s, st.ID)
				}
			}
			for _, pr := range n.Predecessors {
				m, ok := local[pr]
				if !ok || !slices.Contains(m.Successors, n.Name) {
					return fmt.Errorf("%w: line %d: %s %s has predecessor %s, which is not in sub-topology %d with it as successor",
						ErrSyntax, n.Line, n.Kind, n.Name, pr, st.ID)
				}
			}
		}
	}
	return nil
}
