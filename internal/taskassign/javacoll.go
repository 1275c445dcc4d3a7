package taskassign

import (
	"cmp"
	"slices"
)

// The placement Kafka Streams computes depends on the exact order in which
// java.util.PriorityQueue and java.util.HashSet/HashMap hand out their
// elements: the assignor's priority queues compare clients by a load that
// changes while they sit in the heap, ties among equal movements are broken
// by heap position, and some loops run over hash-set order. The types here
// reproduce those orders step by step, so that the same inputs give the
// same placement as on the JVM.

// javaPQ is java.util.PriorityQueue with a comparator: the same array heap,
// sift-up, sift-down and removal, so polls and iteration follow the JVM's
// order even when the comparator's answers change between calls.
type javaPQ[T comparable] struct {
	es  []T
	cmp func(a, b T) int
}

func newJavaPQ[T comparable](compare func(a, b T) int) *javaPQ[T] {
	return &javaPQ[T]{cmp: compare}
}

// newJavaPQFrom is new PriorityQueue<>(collection) for a collection that is
// not a SortedSet or PriorityQueue: the elements in the collection's
// iteration order, then heapified.
func newJavaPQFrom[T comparable](elems []T, compare func(a, b T) int) *javaPQ[T] {
	q := &javaPQ[T]{es: append([]T(nil), elems...), cmp: compare}
	for i := len(q.es)/2 - 1; i >= 0; i-- {
		q.siftDown(i, q.es[i], len(q.es))
	}
	return q
}

func (q *javaPQ[T]) size() int { return len(q.es) }

func (q *javaPQ[T]) offer(e T) {
	q.es = append(q.es, e)
	q.siftUp(len(q.es)-1, e)
}

// poll removes and returns the head; ok is false when the queue is empty.
func (q *javaPQ[T]) poll() (head T, ok bool) {
	if len(q.es) == 0 {
		return head, false
	}
	head = q.es[0]
	n := len(q.es) - 1
	x := q.es[n]
	q.es = q.es[:n]
	if n > 0 {
		q.siftDown(0, x, n)
	}
	return head, true
}

func (q *javaPQ[T]) indexOf(e T) int {
	for i, x := range q.es {
		if x == e {
			return i
		}
	}
	return -1
}

func (q *javaPQ[T]) contains(e T) bool { return q.indexOf(e) >= 0 }

// remove is PriorityQueue.remove(Object): the first element equal to e.
func (q *javaPQ[T]) remove(e T) bool {
	i := q.indexOf(e)
	if i < 0 {
		return false
	}
	q.removeAt(i)
	return true
}

func (q *javaPQ[T]) removeAt(i int) {
	s := len(q.es) - 1
	if s == i {
		q.es = q.es[:s]
		return
	}
	moved := q.es[s]
	q.es = q.es[:s]
	q.siftDown(i, moved, s)
	if q.es[i] == moved {
		q.siftUp(i, moved)
	}
}

func (q *javaPQ[T]) siftUp(k int, x T) {
	for k > 0 {
		parent := (k - 1) >> 1
		e := q.es[parent]
		if q.cmp(x, e) >= 0 {
			break
		}
		q.es[k] = e
		k = parent
	}
	q.es[k] = x
}

func (q *javaPQ[T]) siftDown(k int, x T, n int) {
	half := n >> 1
	for k < half {
		child := 2*k + 1
		c := q.es[child]
		if right := child + 1; right < n && q.cmp(c, q.es[right]) > 0 {
			child = right
			c = q.es[child]
		}
		if q.cmp(x, c) <= 0 {
			break
		}
		q.es[k] = c
		k = child
	}
	q.es[k] = x
}

// hashOrder is the iteration order of a java.util.HashSet (or a HashMap's
// keys) built by adding elements one by one: buckets in index order, each
// bucket in insertion order, the table grown as HashMap grows it (16
// buckets at first, doubled when the size passes three quarters, and
// doubled instead of turning a bucket of nine into a tree while the table
// is smaller than 64). Removal keeps the order of the rest. Buckets that
// Java turns into trees (nine colliding elements in a table of 64 or more)
// are not modelled: their order would differ.
type hashOrder[T comparable] struct {
	hash  func(T) int32
	cap   int
	elems []hashElem[T]
	index map[T]int
}

type hashElem[T comparable] struct {
	e       T
	h       uint32
	seq     int
	removed bool
}

func newHashOrder[T comparable](hash func(T) int32) *hashOrder[T] {
	return newHashOrderCap(hash, 16)
}

// newHashOrderCap is a HashSet (or HashMap) built with a table of capacity
// buckets, a power of two of at least 16.
func newHashOrderCap[T comparable](hash func(T) int32, capacity int) *hashOrder[T] {
	return &hashOrder[T]{hash: hash, cap: capacity, index: map[T]int{}}
}

// newHashOrderFrom is new HashSet<>(collection) on Java 17: a table sized
// for the collection (HashMap(max((int) (size/.75f) + 1, 16)), rounded up to
// a power of two), then the elements added in the collection's order.
// Java 19 and later size the table differently (HashMap.newHashMap), which
// changes the order of some sets of 12, 24, 48... elements.
func newHashOrderFrom[T comparable](elems []T, hash func(T) int32) *hashOrder[T] {
	o := newHashOrderCap(hash, tableSizeFor(max(int(float32(len(elems))/float32(0.75))+1, 16)))
	for _, e := range elems {
		o.add(e)
	}
	return o
}

// tableSizeFor is HashMap.tableSizeFor: the smallest power of two that
// holds n, at most 1<<30.
func tableSizeFor(n int) int {
	c := 1
	for c < n && c < 1<<30 {
		c <<= 1
	}
	return c
}

// spread is HashMap.hash: the high half folded into the low half.
func spread(h int32) uint32 {
	u := uint32(h)
	return u ^ (u >> 16)
}

func (o *hashOrder[T]) add(e T) {
	if i, ok := o.index[e]; ok && !o.elems[i].removed {
		return
	}
	h := spread(o.hash(e))
	o.index[e] = len(o.elems)
	o.elems = append(o.elems, hashElem[T]{e: e, h: h, seq: len(o.elems)})
	if o.cap < 64 {
		bin := 0
		mask := uint32(o.cap - 1)
		for _, x := range o.elems {
			if !x.removed && x.h&mask == h&mask {
				bin++
			}
		}
		if bin >= 9 {
			o.cap *= 2
		}
	}
	if float64(o.len()) > 0.75*float64(o.cap) {
		o.cap *= 2
	}
}

func (o *hashOrder[T]) remove(e T) {
	if i, ok := o.index[e]; ok {
		o.elems[i].removed = true
		delete(o.index, e)
	}
}

func (o *hashOrder[T]) len() int { return len(o.index) }

// order returns the elements in Java's iteration order.
func (o *hashOrder[T]) order() []T {
	mask := uint32(o.cap - 1)
	live := make([]hashElem[T], 0, len(o.index))
	for _, x := range o.elems {
		if !x.removed {
			live = append(live, x)
		}
	}
	// Stable by bucket: insertion order inside a bucket is kept.
	slices.SortStableFunc(live, func(a, b hashElem[T]) int { return cmp.Compare(a.h&mask, b.h&mask) })
	out := make([]T, len(live))
	for i, x := range live {
		out[i] = x.e
	}
	return out
}

// javaHashSetOrder is the iteration order of a HashSet filled with elems in
// order.
func javaHashSetOrder[T comparable](elems []T, hash func(T) int32) []T {
	o := newHashOrder(hash)
	for _, e := range elems {
		o.add(e)
	}
	return o.order()
}
