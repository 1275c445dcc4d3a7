package streams

import (
	"fmt"
	"sync"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/kstreams/serde/registry"
)

// registrySerdes holds the Schema Registry default serdes built for each
// configuration, so that every task and thread of an application shares one
// registry client and its cache of schemas and ids, as a JVM application's
// default serde instance does. Configurations are few and live as long as
// the process.
var registrySerdes struct {
	sync.Mutex
	built map[registrySerdeKey]serde.Untyped
}

type registrySerdeKey struct {
	cfg   *compat.Config
	isKey bool
}

// defaultSerde returns default.key.serde (isKey) or default.value.serde of
// cfg, nil when unset.
func defaultSerde(cfg *compat.Config, isKey bool) (serde.Untyped, error) {
	s := cfg.DefaultValueSerde
	if isKey {
		s = cfg.DefaultKeySerde
	}
	if !s.IsSchemaRegistry() {
		return serdeFor(s)
	}
	registrySerdes.Lock()
	defer registrySerdes.Unlock()
	k := registrySerdeKey{cfg, isKey}
	if u, ok := registrySerdes.built[k]; ok {
		return u, nil
	}
	cc, err := cfg.SchemaRegistry.ClientConfig()
	if err != nil {
		return nil, err
	}
	client, err := registry.NewClient(cc)
	if err != nil {
		return nil, fmt.Errorf("streams: %s: %w", s, err)
	}
	sc := cfg.SchemaRegistry.SerdeConfig(isKey)
	var u serde.Untyped
	switch s {
	case compat.SerdeSpecificAvro, compat.SerdeGenericAvro:
		g, err := registry.NewGenericAvro(client, sc)
		if err != nil {
			return nil, err
		}
		u = serde.Erase[registry.GenericRecord](g)
	case compat.SerdePrimitiveAvro:
		if u, err = registry.NewPrimitiveAvro(client, sc); err != nil {
			return nil, err
		}
	case compat.SerdeProtobuf, compat.SerdeJSONSchema:
		if u, err = cfg.SchemaRegistry.NewSerde(s, isKey, client); err != nil {
			return nil, fmt.Errorf("streams: %s: %w", s, err)
		}
	default:
		return nil, fmt.Errorf("streams: no Schema Registry serde for %s", s)
	}
	if registrySerdes.built == nil {
		registrySerdes.built = map[registrySerdeKey]serde.Untyped{}
	}
	registrySerdes.built[k] = u
	return u, nil
}

func serdeFor(s compat.Serde) (serde.Untyped, error) {
	if s == compat.SerdeUnset {
		return nil, nil
	}
	return serde.ByClassName(s.String())
}

// DefaultSerdes returns the serdes default.key.serde and default.value.serde
// name, nil where unset: the serdes the runtime gives stores and nodes that
// name none. Schema Registry serdes are built from cfg.SchemaRegistry.
func DefaultSerdes(cfg *compat.Config) (key, value serde.Untyped, err error) {
	if key, err = defaultSerde(cfg, true); err != nil {
		return nil, nil, err
	}
	if value, err = defaultSerde(cfg, false); err != nil {
		return nil, nil, err
	}
	return key, value, nil
}
