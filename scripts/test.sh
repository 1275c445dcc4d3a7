#!/usr/bin/env bash
# Starts the local Kafka 4.4 broker, runs every test against it, and stops
# the broker even when tests fail. Integration tests see the broker through
# STOATFLOW_TEST_BOOTSTRAP; CI=true turns a missing broker into a failure.
#
#   STOATFLOW_TEST_FLAGS   extra flags for go test (e.g. -run X, -v)
set -euo pipefail
cd "$(dirname "$0")/.."

# Without a broker given, run this script again under with-broker.sh, which
# starts the local one and stops it on exit, failures included.
if [[ -z "${STOATFLOW_TEST_BOOTSTRAP:-}" ]]; then
	exec scripts/with-broker.sh "$0" "$@"
fi
echo "test: Apache Kafka 4.4.0 at $STOATFLOW_TEST_BOOTSTRAP" >&2

# The config surface on the example a user would try first.
go run ./cmd/sidecar config --config examples/wordcount/streams.properties

# Top-level results of every test (skips included, so a skipped integration
# test shows), then each package's closing line; the full log stays in
# .cache/test.log.
mkdir -p .cache
set +e
# shellcheck disable=SC2086
go test -count=1 -v -timeout 40m ${STOATFLOW_TEST_FLAGS:-} ./... 2>&1 | tee .cache/test.log |
	grep -E '^(--- (PASS|FAIL|SKIP)|ok |FAIL|panic:|\?)'
rc=${PIPESTATUS[0]}
set -e
if ((rc != 0)) || grep -qE '^(FAIL|panic:)|^--- FAIL' .cache/test.log; then
	awk -f scripts/failures.awk .cache/test.log >&2
	echo "test: FAILED (full log: .cache/test.log)" >&2
	exit 1
fi
# The concurrent packages once more under the race detector.
race_pkgs=()
for p in state txn kstreams streams metrics; do
	[[ -n "$(find "$p" -name '*_test.go' -print -quit 2>/dev/null)" ]] && race_pkgs+=("./$p/...")
done
if ((${#race_pkgs[@]})); then
	# shellcheck disable=SC2086
	go test -count=1 -race -short -timeout 30m ${STOATFLOW_TEST_FLAGS:-} "${race_pkgs[@]}"
fi
