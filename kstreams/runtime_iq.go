// For the runtime only (see "For the runtime" in the package documentation):
// the serdes of a store, for the interactive queries of the HTTP API.

package kstreams

import (
	"fmt"

	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// StoreSerdes returns the serdes of store name's keys and values, resolved
// against the application's default serdes as the running tasks resolve
// them (see DefaultSerde). Store keys are the plain record keys, also for
// window and session stores; values are what the serde writes, before the
// timestamp prefix of timestamped stores. It fails for an unknown store and
// for a store that relies on a default serde the application does not set.
func (t *Topology) StoreSerdes(name string, defaultKey, defaultValue serde.Untyped) (key, value serde.Untyped, err error) {
	s, ok := t.stores[name]
	if !ok {
		return nil, nil, fmt.Errorf("kstreams: no store %q in the topology", name)
	}
	if key, err = s.key.resolve(defaultKey); err != nil {
		return nil, nil, fmt.Errorf("kstreams: store %s key serde: %w", name, err)
	}
	if value, err = s.val.resolve(defaultValue); err != nil {
		return nil, nil, fmt.Errorf("kstreams: store %s value serde: %w", name, err)
	}
	return key, value, nil
}
