#!/usr/bin/env bash
# Starts the local Kafka 4.4 broker, runs every test against it, and stops
# the broker even when tests fail. Integration tests see the broker through
# STOATFLOW_TEST_BOOTSTRAP; CI=true turns a missing broker into a failure.
#
#   STOATFLOW_TEST_FLAGS   extra flags for go test (e.g. -run X, -v)
set -euo pipefail
cd "$(dirname "$0")/.."

# Without a schema registry given, run this script again under
# with-registry.sh, which starts the local one and stops it on exit.
if [[ -z "${STOATFLOW_TEST_REGISTRY_URL:-}" ]]; then
	exec scripts/with-registry.sh "$0" "$@"
fi
# Without a broker given, run this script again under with-broker.sh, which
# starts the local one and stops it on exit, failures included.
if [[ -z "${STOATFLOW_TEST_BOOTSTRAP:-}" ]]; then
	exec scripts/with-broker.sh "$0" "$@"
fi
echo "test: Apache Kafka 4.4.0 at $STOATFLOW_TEST_BOOTSTRAP, schema registry at $STOATFLOW_TEST_REGISTRY_URL" >&2

# The config surface on the example a user would try first.
go run ./cmd/sidecar config --config examples/wordcount/streams.properties

# Production binaries carry no failpoint or assertion code: both packages
# are compiled in only under their build tags.
mkdir -p .cache
go build -o .cache/sidecar ./cmd/sidecar
if go tool nm .cache/sidecar | grep -E 'stoatflow/internal/(failpoint|invariants)\.'; then
	echo "test: the production sidecar binary links failpoint or invariants code (above)" >&2
	exit 1
fi

# pass NAME ARGS... runs `go test -count=1 -v ARGS` (STOATFLOW_TEST_FLAGS
# last, so that they win), keeps the full log in .cache/test-NAME.log and
# prints each test's top-level result, then each package's closing line,
# prefixed with the pass name; on failure it prints what the failed tests
# logged and returns 1.
pass() {
	local name=$1
	shift
	local log=.cache/test-$name.log
	echo "test: [$name] go test $*" >&2
	set +e
	# shellcheck disable=SC2086
	go test -count=1 -v "$@" ${STOATFLOW_TEST_FLAGS:-} 2>&1 | tee "$log" |
		grep --line-buffered -E '^(--- (PASS|FAIL|SKIP)|ok |FAIL|panic:|\?)' | sed -u "s/^/[$name] /"
	local rc=${PIPESTATUS[0]}
	set -e
	if ((rc != 0)) || grep -qE '^(FAIL|panic:)|^--- FAIL' "$log"; then
		awk -f scripts/failures.awk "$log" >&2
		echo "test: [$name] FAILED (full log: $log)" >&2
		return 1
	fi
}

# Tests that arm failpoints fail loudly in a build without them (see
# internal/failpoint): the crash suites and the aborted-epoch test of txn.
# The production pass leaves every TestCrash* (state's included) to pass 2.
arms_failpoints='^TestAbortedEpochNeverReachesStoreOrOutput$'

# 1. The production build, as users run it: every test but those.
pass main -timeout 60m -skip "^TestCrash|$arms_failpoints" ./...

# 2. Failpoints and invariants compiled in. The crash suites (children
# killed with SIGKILL, in integration at failpoints, and checked after
# every kill; the children check the commit-path assertions at every
# commit) beside the unit tests of the commit path under the assertions
# (state's crash test, txn's aborted epoch and the runtime's kfake tests
# included). The two runs go side by side: the crash suites mostly wait on
# their children and the broker.
tags=(-tags failpoint,invariants)
pass crash "${tags[@]}" -timeout 40m -run '^TestCrash' ./integration/ &
crash=$!
rc=0
pass invariants "${tags[@]}" -timeout 30m ./internal/... ./state/... ./txn/... ./streams/... || rc=1
wait "$crash" || rc=1
if ((rc != 0)); then
	exit 1
fi

# 3. The concurrent packages once more under the race detector, in the
# production build: the runtime's kfake tests and the HTTP handlers
# included.
race_pkgs=()
for p in state txn kstreams streams metrics internal/httpapi; do
	[[ -n "$(find "$p" -name '*_test.go' -print -quit 2>/dev/null)" ]] && race_pkgs+=("./$p/...")
done
if ((${#race_pkgs[@]})); then
	pass race -race -short -timeout 30m -skip "$arms_failpoints" "${race_pkgs[@]}"
fi
echo "test: all passes ok (logs in .cache/test-*.log)" >&2
