package kstreams

import "strconv"

const prefixBranch = "KSTREAM-BRANCH-"

// Branched configures one branch of a split: Kafka's Branched. Name is
// appended to the split's prefix (else the branch's position, from 1; the
// default branch is 0). Function, if set, turns the branch into the stream
// the result map holds; Consumer, if set, consumes it and the map omits it.
type Branched[K, V any] struct {
	Name     string
	Function func(*KStream[K, V]) *KStream[K, V]
	Consumer func(*KStream[K, V])
}

// BranchedKStream is a stream being split by predicates: Kafka's
// BranchedKStream. Each record goes to the first branch whose predicate
// accepts it, else to the default branch, if any. A null value that V cannot
// hold is shown to no predicate and goes to the default branch; split
// Nullable(s) to route tombstones.
type BranchedKStream[K, V any] struct {
	s        *KStream[K, V]
	prefix   string
	preds    []func(K, V) bool
	children []string
	dflt     string
	out      map[string]*KStream[K, V]
}

// Split starts splitting s: KStream.split. Named names the splitter and
// prefixes the branch names; otherwise the generated splitter name does.
func (s *KStream[K, V]) Split(named ...Named) *BranchedKStream[K, V] {
	b := &BranchedKStream[K, V]{s: s, out: map[string]*KStream[K, V]{}}
	name := s.b.orGenerate(firstNamed(named), prefixBranch)
	b.prefix = name
	arg := valueArg[V](s.view)
	s.b.addNode(&nodeSpec{name: name, kind: ProcessorNode, preds: []string{s.name}, supplier: func() Processor {
		return &funcProcessor{fn: func(ctx ProcessorContext, r Record) error {
			// A null that V cannot hold goes to the default branch: no
			// predicate can accept a value it cannot see.
			if v, ok := arg(r.Value); ok {
				k := as[K](r.Key)
				for i, p := range b.preds {
					if p(k, v) {
						return ctx.ForwardTo(b.children[i], r)
					}
				}
			}
			if b.dflt != "" {
				return ctx.ForwardTo(b.dflt, r)
			}
			return nil
		}}
	}})
	return b
}

func (b *BranchedKStream[K, V]) branch(index int, opts []Branched[K, V]) string {
	var o Branched[K, V]
	if len(opts) > 0 {
		o = opts[0]
	}
	suffix := o.Name
	if suffix == "" {
		suffix = strconv.Itoa(index)
	}
	name := b.prefix + suffix
	s := b.s
	s.b.newProcessorName(prefixBranch) // Kafka 4.4 draws a name for every branch
	s.b.fail(validateName(name))
	s.b.addNode(&nodeSpec{name: name, kind: ProcessorNode, preds: []string{b.prefix},
		supplier: stateless(func(ctx ProcessorContext, r Record) error { return ctx.Forward(r) })})
	child := s.same(name, s.repartitionRequired)
	switch {
	case o.Consumer != nil:
		o.Consumer(child)
	case o.Function != nil:
		b.out[name] = o.Function(child)
	default:
		b.out[name] = child
	}
	return name
}

// Branch adds a branch for the records pred accepts (and no earlier branch did).
func (b *BranchedKStream[K, V]) Branch(pred func(K, V) bool, opts ...Branched[K, V]) *BranchedKStream[K, V] {
	b.preds = append(b.preds, pred)
	b.children = append(b.children, "")
	b.children[len(b.children)-1] = b.branch(len(b.preds), opts)
	return b
}

// DefaultBranch adds the branch for records no predicate accepted and
// returns the branches by name.
func (b *BranchedKStream[K, V]) DefaultBranch(opts ...Branched[K, V]) map[string]*KStream[K, V] {
	b.dflt = b.branch(0, opts)
	return b.out
}

// NoDefaultBranch drops records no predicate accepted and returns the
// branches by name.
func (b *BranchedKStream[K, V]) NoDefaultBranch() map[string]*KStream[K, V] {
	return b.out
}
