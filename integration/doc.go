// Package integration holds the tests that run against a real Apache Kafka 4.4
// broker and against Kafka Streams 4.4 itself, together with the helpers that
// start the broker and the Kafka Streams reference applications.
//
// The tests run in parallel (t.Parallel): each works on topics, application
// ids and state directories of its own (testkafka.Topic, t.TempDir), and
// spends most of its time waiting on its Kafka Streams twin, the broker and
// the lingers of its reads. The few whose checks hold only within
// wall-clock bounds (the shadow's grace periods) or that measure are not
// parallel: go test runs them first, one at a time, before the others
// start. Neither are the migration tests, whose scenarios (parallel among
// themselves) each need a SIGKILL to land inside a transaction while the
// input is still being fed, which a fully loaded machine made miss; nor
// the crash tests, which kill their children at chosen moments.
// scripts/test.sh sets how many run at once.
package integration
