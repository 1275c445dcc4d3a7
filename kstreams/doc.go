// Package kstreams is StoatFlow's Kafka Streams: the typed DSL, Topology and its
// describe() text, serdes, and the runtime of stream threads and tasks.
package kstreams
