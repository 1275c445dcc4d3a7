#!/usr/bin/env bash
# Word count end to end on a local Apache Kafka 4.4 broker, on StoatFlow
# (`scripts/demo.sh stoatflow`, the default) or on its Kafka Streams 4.4 twin
# (`scripts/demo.sh jvm`): starts the broker when none runs, feeds sample
# lines, prints the counts as they change, and stops what it started.
set -euo pipefail
cd "$(dirname "$0")/.."
started=0
if ! addr="$(integration/kafka.sh status 2>/dev/null)"; then
	addr="$(integration/kafka.sh up)"
	started=1
fi
stop() {
	if ((started)); then integration/kafka.sh down || true; fi
}
trap stop EXIT
case "${1:-stoatflow}" in
jvm) go run ./integration/cmd/refdemo -bootstrap "$addr" ;;
*) go run ./cmd/sidecar demo --bootstrap "$addr" ;;
esac
