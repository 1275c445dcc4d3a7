// Package registry holds serdes that write and read the Confluent Schema
// Registry wire format, the bytes Confluent's Kafka Streams serdes
// (io.confluent.kafka.streams.serdes.avro.SpecificAvroSerde, GenericAvroSerde,
// PrimitiveAvroSerde, ...protobuf.KafkaProtobufSerde,
// ...json.KafkaJsonSchemaSerde) put on a topic: a magic byte 0, the schema's
// registry id as a 4-byte big-endian integer, then the Avro binary encoding
// of the value, the Protobuf message indexes and encoding, or the JSON text.
// Classes binds the Java classes a JVM application's configuration names to
// Go types; a program passes its Classes to the configuration loader, and
// nothing binds a class by being imported.
//
// The registry client is confluent-kafka-go's pure-Go schemaregistry package;
// nothing here links librdkafka. A Serde registers or looks up its schema under
// the subject its SubjectNameStrategy names (TopicNameStrategy by default:
// "<topic>-key" or "<topic>-value"), as auto.register.schemas,
// use.latest.version and normalize.schemas say.
//
// Deserialization failures are *WireError values: they name the topic, the
// schema id when the bytes carry one, and what to do; they match
// serde.ErrSerialization, so that the runtime hands them to the deserialization
// exception handler, which adds the partition and offset.
package registry
