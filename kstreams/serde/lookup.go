package serde

import "fmt"

// Kafka class names of the built-in serdes, as they appear in
// default.key.serde and default.value.serde.
const (
	ClassString    = "org.apache.kafka.common.serialization.Serdes$StringSerde"
	ClassLong      = "org.apache.kafka.common.serialization.Serdes$LongSerde"
	ClassInteger   = "org.apache.kafka.common.serialization.Serdes$IntegerSerde"
	ClassShort     = "org.apache.kafka.common.serialization.Serdes$ShortSerde"
	ClassDouble    = "org.apache.kafka.common.serialization.Serdes$DoubleSerde"
	ClassFloat     = "org.apache.kafka.common.serialization.Serdes$FloatSerde"
	ClassBoolean   = "org.apache.kafka.common.serialization.Serdes$BooleanSerde"
	ClassByteArray = "org.apache.kafka.common.serialization.Serdes$ByteArraySerde"
	ClassBytes     = "org.apache.kafka.common.serialization.Serdes$BytesSerde"
	ClassVoid      = "org.apache.kafka.common.serialization.Serdes$VoidSerde"
	ClassUUID      = "org.apache.kafka.common.serialization.Serdes$UUIDSerde"

	ClassTimeWindowed    = "org.apache.kafka.streams.kstream.WindowedSerdes$TimeWindowedSerde"
	ClassSessionWindowed = "org.apache.kafka.streams.kstream.WindowedSerdes$SessionWindowedSerde"
)

// ClassByteBuffer is Kafka's ByteBufferSerde, whose values are ByteBufferValue.
const ClassByteBuffer = "org.apache.kafka.common.serialization.Serdes$ByteBufferSerde"

var byClass = map[string]func() Untyped{
	ClassString:    func() Untyped { return Erase[string](String{}) },
	ClassLong:      func() Untyped { return Erase[int64](Long{}) },
	ClassInteger:   func() Untyped { return Erase[int32](Integer{}) },
	ClassShort:     func() Untyped { return Erase[int16](Short{}) },
	ClassDouble:    func() Untyped { return Erase[float64](Double{}) },
	ClassFloat:     func() Untyped { return Erase[float32](Float{}) },
	ClassBoolean:   func() Untyped { return Erase[bool](Boolean{}) },
	ClassByteArray: func() Untyped { return Erase[[]byte](ByteArray{}) },
	ClassBytes:     func() Untyped { return Erase[BytesValue](Bytes{}) },
	ClassVoid:      func() Untyped { return Erase[VoidValue](Void{}) },
	ClassUUID:      func() Untyped { return Erase[UUIDValue](UUID{}) },

	ClassByteBuffer: func() Untyped { return Erase[ByteBufferValue](ByteBuffer{}) },
}

// ByClassName returns the serde Kafka names by its class, for
// default.key.serde and default.value.serde. Windowed serde classes need their
// inner serde and window size; use WindowedByClassName for them.
func ByClassName(class string) (Untyped, error) {
	if f, ok := byClass[class]; ok {
		return f(), nil
	}
	if class == ClassTimeWindowed || class == ClassSessionWindowed {
		return nil, fmt.Errorf("serde: %s needs an inner serde (default.windowed.key.serde.inner or default.windowed.value.serde.inner): %w", class, ErrUnknownClass)
	}
	return nil, fmt.Errorf("serde: class %s could not be found: %w", class, ErrUnknownClass)
}

// ErrUnknownClass is returned for a class name StoatFlow has no serde for.
var ErrUnknownClass = fmt.Errorf("serde: unknown serde class")

// WindowedByClassName returns a windowed serde class with its inner serde
// class. windowSize is needed by the time-windowed deserializer (Kafka's
// window.size.ms) and ignored for session windows.
func WindowedByClassName(class, innerClass string, windowSize int64) (Untyped, error) {
	inner, err := ByClassName(innerClass)
	if err != nil {
		return nil, err
	}
	switch class {
	case ClassTimeWindowed:
		return untypedTimeWindowed{inner: inner, size: windowSize}, nil
	case ClassSessionWindowed:
		return untypedSessionWindowed{inner: inner}, nil
	}
	return nil, fmt.Errorf("serde: class %s is not a windowed serde: %w", class, ErrUnknownClass)
}

// AnyWindowed is a windowed key whose inner key has an erased type, as
// produced by the windowed serdes returned from WindowedByClassName.
type AnyWindowed = Windowed[any]

type anyInner struct{ u Untyped }

func (a anyInner) Serialize(topic string, v any) ([]byte, error) {
	return a.u.SerializeAny(topic, v)
}

func (a anyInner) Deserialize(topic string, b []byte) (any, error) {
	return a.u.DeserializeAny(topic, b)
}

type untypedTimeWindowed struct {
	inner Untyped
	size  int64
}

func (s untypedTimeWindowed) SerializeAny(topic string, v any) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	w, ok := v.(Windowed[any])
	if !ok {
		return nil, serErr("value of type %T cannot be serialized by TimeWindowedSerde", v)
	}
	return TimeWindowed[any]{Inner: anyInner{s.inner}}.Serialize(topic, w)
}

func (s untypedTimeWindowed) DeserializeAny(topic string, b []byte) (any, error) {
	if b == nil {
		return nil, nil
	}
	return TimeWindowed[any]{Inner: anyInner{s.inner}, WindowSize: s.size}.Deserialize(topic, b)
}

// SerializeBaseKey returns the inner key's bytes without the window.
func (s untypedTimeWindowed) SerializeBaseKey(topic string, v any) ([]byte, error) {
	w, ok := v.(Windowed[any])
	if !ok {
		return nil, serErr("value of type %T is not a windowed key", v)
	}
	return s.inner.SerializeAny(topic, w.Key)
}

type untypedSessionWindowed struct{ inner Untyped }

// SerializeBaseKey returns the inner key's bytes without the window.
func (s untypedSessionWindowed) SerializeBaseKey(topic string, v any) ([]byte, error) {
	w, ok := v.(Windowed[any])
	if !ok {
		return nil, serErr("value of type %T is not a windowed key", v)
	}
	return s.inner.SerializeAny(topic, w.Key)
}

func (s untypedSessionWindowed) SerializeAny(topic string, v any) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	w, ok := v.(Windowed[any])
	if !ok {
		return nil, serErr("value of type %T cannot be serialized by SessionWindowedSerde", v)
	}
	return SessionWindowed[any]{Inner: anyInner{s.inner}}.Serialize(topic, w)
}

func (s untypedSessionWindowed) DeserializeAny(topic string, b []byte) (any, error) {
	if b == nil {
		return nil, nil
	}
	return SessionWindowed[any]{Inner: anyInner{s.inner}}.Deserialize(topic, b)
}
