package streams

import (
	"fmt"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/kstreams/serde/registry"
)

// defaultSerde returns the instance's default.key.serde (isKey) or
// default.value.serde, nil when unset. A Schema Registry serde is built
// once per instance, so that every task and thread of the instance shares
// one registry client and its cache of schemas and ids, as a JVM
// application's default serde instance does; it goes with the instance.
func (s *KafkaStreams) defaultSerde(isKey bool) (serde.Untyped, error) {
	which := s.cfg.DefaultValueSerde
	if isKey {
		which = s.cfg.DefaultKeySerde
	}
	if !which.IsSchemaRegistry() {
		return serdeFor(which)
	}
	s.serdes.Lock()
	defer s.serdes.Unlock()
	built := &s.serdes.value
	if isKey {
		built = &s.serdes.key
	}
	if *built != nil {
		return *built, nil
	}
	u, err := newDefaultSerde(s.cfg, isKey)
	if err != nil {
		return nil, err
	}
	*built = u
	return u, nil
}

// newDefaultSerde builds default.key.serde (isKey) or default.value.serde
// of cfg, nil when unset; a Schema Registry serde gets a registry client of
// its own.
func newDefaultSerde(cfg *compat.Config, isKey bool) (serde.Untyped, error) {
	s := cfg.DefaultValueSerde
	if isKey {
		s = cfg.DefaultKeySerde
	}
	if !s.IsSchemaRegistry() {
		return serdeFor(s)
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
	switch s {
	case compat.SerdeSpecificAvro, compat.SerdeGenericAvro:
		g, err := registry.NewGenericAvro(client, sc)
		if err != nil {
			return nil, err
		}
		return serde.Erase[registry.GenericRecord](g), nil
	case compat.SerdePrimitiveAvro:
		return registry.NewPrimitiveAvro(client, sc)
	case compat.SerdeProtobuf, compat.SerdeJSONSchema:
		u, err := cfg.SchemaRegistry.NewSerde(s, isKey, client)
		if err != nil {
			return nil, fmt.Errorf("streams: %s: %w", s, err)
		}
		return u, nil
	}
	return nil, fmt.Errorf("streams: no Schema Registry serde for %s", s)
}

// DefaultSerdes returns the serdes the instance gives stores and nodes that
// name none: those default.key.serde and default.value.serde name, nil
// where unset. Schema Registry serdes are the instance's own, shared with
// its tasks (an interactive query's reads use the registry client and
// schema cache the stream threads use).
func (s *KafkaStreams) DefaultSerdes() (key, value serde.Untyped, err error) {
	if key, err = s.defaultSerde(true); err != nil {
		return nil, nil, err
	}
	if value, err = s.defaultSerde(false); err != nil {
		return nil, nil, err
	}
	return key, value, nil
}

// DefaultSerdes returns new serdes of the kinds default.key.serde and
// default.value.serde name, nil where unset, for a program without a
// KafkaStreams instance. Schema Registry serdes are built from
// cfg.SchemaRegistry, each call's with a registry client of their own;
// (*KafkaStreams).DefaultSerdes returns a running instance's.
func DefaultSerdes(cfg *compat.Config) (key, value serde.Untyped, err error) {
	if key, err = newDefaultSerde(cfg, true); err != nil {
		return nil, nil, err
	}
	if value, err = newDefaultSerde(cfg, false); err != nil {
		return nil, nil, err
	}
	return key, value, nil
}

func serdeFor(s compat.Serde) (serde.Untyped, error) {
	if s == compat.SerdeUnset {
		return nil, nil
	}
	return serde.ByClassName(s.String())
}
