#!/usr/bin/env bash
# Runs a command with STOATFLOW_TEST_BOOTSTRAP pointing at the local Kafka 4.4
# broker, starting the broker first when none runs and stopping it after.
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
export STOATFLOW_TEST_BOOTSTRAP="$addr"
# The broker's log: the fleet tests count a group's rebalances in it.
export STOATFLOW_TEST_BROKER_LOG="${STOATFLOW_TEST_BROKER_LOG:-${STOATFLOW_KAFKA_HOME:-$PWD/.cache}/kafka-run/${STOATFLOW_KAFKA_PORT:-9092}/server.log}"
"$@"
