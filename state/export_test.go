package state

// Internals for the tests of package state_test, which run the stores on
// both engines and so import package state/rocksdb.

// Segments returns the ids of the segments holding data in s's engine,
// ascending.
func Segments(s Store) []int64 {
	var c *core
	switch s := s.(type) {
	case *kvStore:
		c = s.c
	case *lruStore:
		c = s.c
	case *windowStore:
		c = s.s.c
	case *sessionStore:
		c = s.s.c
	case *versionedStore:
		c = s.s.c
	default:
		panic("state: Segments of an unknown store type")
	}
	v, err := c.base.View()
	if err != nil {
		return nil
	}
	defer v.Release()
	return v.Segments()
}

// LRURecency returns an LRU store's live and committed recency orders, least
// recently used first.
func LRURecency(s LRUKeyValueStore) (live, committed []string) {
	return s.(*lruStore).recency()
}
