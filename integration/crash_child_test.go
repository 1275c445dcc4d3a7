package integration

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"sync"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
)

// queryInterval is how often a child with childSpec.Query reads its stores.
const queryInterval = 20 * time.Millisecond

// startQueries runs interactive queries in a child while it processes:
// every queryInterval it reads every store partition of the topology
// through a READ_COMMITTED view and prints each (store, key, value) it has
// not printed before as
//
//	QUERY <store> <partition> <key hex> <value hex>
//
// with key and value encoded as the topology writes them to its output
// topics (the timestamp of timestamped stores dropped; window keys as
// key ++ start, session keys as key ++ end ++ start), so that the parent can
// look each one up in the committed output. It returns a function that
// stops the queries and waits for them.
func startQueries(ks *streams.KafkaStreams, spec childSpec) (stop func()) {
	build, ok := topologies[spec.Topology]
	if !ok {
		fmt.Fprintln(os.Stderr, "child: queries: no topology", spec.Topology)
		return func() {}
	}
	topo, err := build(spec.Args)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child: queries:", err)
		return func() {}
	}
	var specs []*kstreams.StoreSpec
	for _, st := range topo.Subtopologies() {
		specs = append(specs, st.Stores...)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		seen := map[string]bool{}
		tick := time.NewTicker(queryInterval)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			for _, sp := range specs {
				for _, ls := range ks.LocalStores(sp.Name) {
					// A store closed under the query (revocation, shutdown)
					// fails the read; the next round reads its successor.
					_ = queryStore(ls, sp.Timestamped, func(k, v []byte) {
						line := fmt.Sprintf("QUERY %s %d %s %s", sp.Name, ls.Partition, hex.EncodeToString(k), hex.EncodeToString(v))
						id := sp.Name + " " + hex.EncodeToString(k) + " " + hex.EncodeToString(v)
						if !seen[id] {
							seen[id] = true
							fmt.Println(line)
						}
					})
				}
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

// queryStore reads every entry of a store partition READ_COMMITTED and
// passes it to fn in output encoding.
func queryStore(ls streams.LocalStore, timestamped bool, fn func(k, v []byte)) error {
	val := func(v []byte) []byte {
		if timestamped && len(v) >= 8 {
			return v[8:]
		}
		return v
	}
	switch s := ls.Store.(type) {
	case state.KeyValueStore:
		it, err := s.ReadOnly(state.ReadCommitted).All()
		if err != nil {
			return err
		}
		defer it.Close()
		for it.Next() {
			fn(it.Key(), val(it.Value()))
		}
		return it.Err()
	case state.WindowStore:
		it, err := s.ReadOnly(state.ReadCommitted).FetchAll(0, math.MaxInt64, false)
		if err != nil {
			return err
		}
		defer it.Close()
		for it.Next() {
			fn(binary.BigEndian.AppendUint64(append([]byte(nil), it.Key()...), uint64(it.WindowStart())), val(it.Value()))
		}
		return it.Err()
	case state.SessionStore:
		it, err := s.ReadOnly(state.ReadCommitted).FindSessionsRange(nil, nil, 0, math.MaxInt64, false)
		if err != nil {
			return err
		}
		defer it.Close()
		for it.Next() {
			k := append([]byte(nil), it.Key()...)
			k = binary.BigEndian.AppendUint64(k, uint64(it.End()))
			k = binary.BigEndian.AppendUint64(k, uint64(it.Start()))
			fn(k, val(it.Value()))
		}
		return it.Err()
	}
	return fmt.Errorf("queries: store %s of unknown type %T", ls.Name, ls.Store)
}
