// Package lruorder keeps a set of keys in the order of their last use,
// least recently used first: the access order of a Java LinkedHashMap
// built with accessOrder=true, without the values. Stores that evict the
// least recently used entry (Kafka Streams' Stores.lruMap) keep one beside
// their data.
package lruorder

// Order is a set of keys ordered by last use. The zero value is not
// usable; call New. An Order is not safe for concurrent use.
type Order struct {
	// root is the sentinel of a circular list: root.next is the least
	// recently used key, root.prev the most recently used.
	root  node
	nodes map[string]*node
}

type node struct {
	key        string
	prev, next *node
}

// New returns an empty order.
func New() *Order {
	o := &Order{nodes: map[string]*node{}}
	o.root.prev, o.root.next = &o.root, &o.root
	return o
}

// Len is the number of keys.
func (o *Order) Len() int { return len(o.nodes) }

// Contains reports whether key is in the set.
func (o *Order) Contains(key string) bool {
	_, ok := o.nodes[key]
	return ok
}

// Touch makes key the most recently used if it is in the set, as a
// LinkedHashMap get does, and reports whether it was.
func (o *Order) Touch(key string) bool {
	n, ok := o.nodes[key]
	if ok {
		o.unlink(n)
		o.pushBack(n)
	}
	return ok
}

// Use makes key the most recently used, adding it if it is absent, as a
// LinkedHashMap put does.
func (o *Order) Use(key string) {
	if o.Touch(key) {
		return
	}
	n := &node{key: key}
	o.nodes[key] = n
	o.pushBack(n)
}

// Remove takes key out of the set and reports whether it was there.
func (o *Order) Remove(key string) bool {
	n, ok := o.nodes[key]
	if ok {
		o.unlink(n)
		delete(o.nodes, key)
	}
	return ok
}

// Eldest returns the least recently used key; ok is false when the set is
// empty.
func (o *Order) Eldest() (key string, ok bool) {
	if len(o.nodes) == 0 {
		return "", false
	}
	return o.root.next.key, true
}

// Keys returns the keys, least recently used first.
func (o *Order) Keys() []string {
	out := make([]string, 0, len(o.nodes))
	for n := o.root.next; n != &o.root; n = n.next {
		out = append(out, n.key)
	}
	return out
}

// Clone returns an independent copy.
func (o *Order) Clone() *Order {
	c := New()
	for n := o.root.next; n != &o.root; n = n.next {
		m := &node{key: n.key}
		c.nodes[n.key] = m
		c.pushBack(m)
	}
	return c
}

// Clear empties the set.
func (o *Order) Clear() {
	clear(o.nodes)
	o.root.prev, o.root.next = &o.root, &o.root
}

func (o *Order) unlink(n *node) {
	n.prev.next, n.next.prev = n.next, n.prev
	n.prev, n.next = nil, nil
}

func (o *Order) pushBack(n *node) {
	last := o.root.prev
	n.prev, n.next = last, &o.root
	last.next, o.root.prev = n, n
}
