package registry

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry/rest"

	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// magicByte opens every record of the Confluent wire format.
const magicByte = 0

// headerLen is the magic byte and the 4-byte schema id.
const headerLen = 5

// NoSchemaID stands in WireError.SchemaID when the bytes carry no id.
const NoSchemaID = -1

// ErrRegistryUnavailable is the class of failures to reach the registry (a
// refused connection, a time-out, a server error), as opposed to the
// registry's answer that a schema does not exist. Check with errors.Is; it
// is a serde.ErrUnavailable, so a record that cannot be written while the
// registry is down aborts its epoch, which is retried.
var ErrRegistryUnavailable error = unavailable{}

type unavailable struct{}

func (unavailable) Error() string { return "registry: schema registry unavailable" }

// Is makes ErrRegistryUnavailable a serde.ErrUnavailable.
func (unavailable) Is(target error) bool { return target == serde.ErrUnavailable }

// ErrUnknownSchema is the class of ids and subjects the registry does not know.
var ErrUnknownSchema = errors.New("registry: unknown schema")

// WireError is a record the serde could not write or read: it names the topic,
// the schema id (NoSchemaID when there is none), what went wrong and what to
// do. It matches serde.ErrSerialization, and ErrRegistryUnavailable or
// ErrUnknownSchema when the registry is the cause.
type WireError struct {
	Topic    string
	SchemaID int
	// Subject is the subject looked up, when there is one.
	Subject string
	Msg     string
	Err     error
}

// Error names the topic and schema id.
func (e *WireError) Error() string {
	s := "registry: topic " + e.Topic
	if e.SchemaID != NoSchemaID {
		s += fmt.Sprintf(", schema id %d", e.SchemaID)
	}
	if e.Subject != "" {
		s += ", subject " + e.Subject
	}
	s += ": " + e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause.
func (e *WireError) Unwrap() error { return e.Err }

// Is reports that every WireError is a serde.ErrSerialization.
func (e *WireError) Is(target error) bool { return target == serde.ErrSerialization }

// header reads the magic byte and schema id of b.
func header(topic string, b []byte) (int, error) {
	if len(b) < headerLen {
		return NoSchemaID, &WireError{Topic: topic, SchemaID: NoSchemaID,
			Msg: fmt.Sprintf("%d bytes are too few for the Confluent wire format (magic byte 0, 4-byte schema id, payload): the record was not written by a schema registry serializer", len(b))}
	}
	if b[0] != magicByte {
		return NoSchemaID, &WireError{Topic: topic, SchemaID: NoSchemaID,
			Msg: fmt.Sprintf("unknown magic byte 0x%02x (the Confluent wire format starts with 0x00): the record was not written by a schema registry serializer", b[0])}
	}
	return int(binary.BigEndian.Uint32(b[1:headerLen])), nil
}

// frame prepends the wire format header for id to payload.
func frame(id int, payload []byte) []byte {
	out := make([]byte, headerLen+len(payload))
	out[0] = magicByte
	binary.BigEndian.PutUint32(out[1:headerLen], uint32(id))
	copy(out[headerLen:], payload)
	return out
}

// classify turns a registry client error into ErrUnknownSchema (the registry
// answered that the subject, version or id does not exist) or
// ErrRegistryUnavailable (anything else: no answer, or a server error).
func classify(err error) error {
	var re *rest.Error
	if errors.As(err, &re) {
		// Confluent's 404 codes: 40401 subject, 40402 version, 40403 schema.
		if re.Code == http.StatusNotFound || (re.Code >= 40400 && re.Code < 40500) {
			return fmt.Errorf("%w: %w", ErrUnknownSchema, err)
		}
		if re.Code >= 400 && re.Code < 500 || re.Code >= 40000 && re.Code < 50000 {
			// The registry refused the request (bad schema, incompatible,
			// unauthorized): an answer, not an outage.
			return err
		}
	}
	return fmt.Errorf("%w: %w", ErrRegistryUnavailable, err)
}

func isRESTError(err error) bool {
	var re *rest.Error
	return errors.As(err, &re)
}

// isTransportError reports an HTTP request that got no answer.
func isTransportError(err error) bool {
	var ue *url.Error
	return errors.As(err, &ue)
}

// retryBackoffs are the pauses between the attempts of a registry request
// that got no answer: a brief outage or a restarting registry should not
// turn into a failed record, while a long one must not stall the stream
// thread for longer than about a second per record.
var retryBackoffs = []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond}

// retryUnavailable runs call until it succeeds, fails with an answer from
// the registry, or has been tried once more than there are retryBackoffs.
func retryUnavailable(call func() error) error {
	err := call()
	for _, d := range retryBackoffs {
		if err == nil || !errors.Is(classify(err), ErrRegistryUnavailable) {
			return err
		}
		time.Sleep(d)
		err = call()
	}
	return err
}
