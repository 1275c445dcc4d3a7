// Package integration holds the tests that run against a real Apache Kafka 4.4
// broker and against Kafka Streams 4.4 itself, together with the helpers that
// start the broker and the Kafka Streams reference applications.
package integration
