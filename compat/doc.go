// Package compat owns the Kafka Streams 4.4 configuration surface: the catalog of
// every StreamsConfig key, validation with Kafka's rules and messages, the
// stoatflow.* keys, and the mapping onto StoatFlow's typed Config and onto
// the franz-go options of every client.
package compat
