#!/usr/bin/env bash
# Word count end to end on a local Apache Kafka 4.4 broker, on StoatFlow
# (`scripts/demo.sh stoatflow`, the default) or on its Kafka Streams 4.4 twin
# (`scripts/demo.sh jvm`): starts the broker when none runs, feeds sample
# lines, prints the counts as they change, and stops what it started.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-stoatflow}" in
jvm) exec scripts/with-broker.sh bash -c 'go run ./integration/cmd/refdemo -bootstrap "$STOATFLOW_TEST_BOOTSTRAP"' ;;
*) exec scripts/with-broker.sh bash -c 'go run ./cmd/sidecar demo --bootstrap "$STOATFLOW_TEST_BOOTSTRAP"' ;;
esac
