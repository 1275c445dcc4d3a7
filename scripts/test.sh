#!/usr/bin/env bash
# Starts the local Kafka 4.4 broker, runs every test against it, and stops
# the broker even when tests fail. Integration tests see the broker through
# STOATFLOW_TEST_BOOTSTRAP; CI=true turns a missing broker into a failure.
#
#   STOATFLOW_TEST_FLAGS     extra flags for go test (e.g. -run X, -v)
#   STOATFLOW_TEST_PARALLEL  integration tests run at once in the main pass (default 6)
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

# 0. kstreams (the test driver and serdes included), compat and properties
# without cgo, as a team that only tests its topologies builds them: no
# RocksDB (state/rocksdb) among their imports. The main pass runs them
# again with cgo.
CGO_ENABLED=0 pass nocgo -timeout 20m ./kstreams/... ./compat/... ./properties/...

# Tests that arm failpoints fail loudly in a build without them (see
# internal/failpoint): the crash suites and the aborted-epoch test of txn.
# The production pass leaves every TestCrash* (state/rocksdb's included) to
# pass 2.
arms_failpoints='^TestAbortedEpochNeverReachesStoreOrOutput$'

# 1. The production build, as users run it: every test but those. The
# integration tests run side by side, STOATFLOW_TEST_PARALLEL at a time
# (go test -parallel; see integration/doc.go): most of their time goes in
# waiting on their Kafka Streams twins, the broker and their read lingers.
# On two cores, 6 is where more at once stops shortening the run and
# starts to make each test slower.
pass main -timeout 60m -parallel "${STOATFLOW_TEST_PARALLEL:-6}" -skip "^TestCrash|$arms_failpoints" ./...

# 2. Failpoints and invariants compiled in. The crash suites (children
# killed with SIGKILL, in integration at failpoints, and checked after
# every kill; the children check the commit-path assertions at every
# commit) beside the unit tests of the commit path under the assertions
# (state's crash test, txn's aborted epoch and the runtime's kfake tests
# included), and after those, in the same lane:
# 3. The concurrent packages once more under the race detector, in the
# production build: the runtime's kfake tests and the HTTP handlers
# included.
# The crash suites mostly wait on their children and the broker, so they
# go side by side with the unit tests, one crash test at a time. The
# quiet-store crash test waits minutes for the broker to delete its
# changelog's first segments: it runs in a go test of its own beside the
# others, unless STOATFLOW_TEST_FLAGS picks tests (-run, -skip), which
# would then pick them in both.
tags=(-tags failpoint,invariants)
quiet='^TestCrashQuietStoreReplaysOnlyTheTail$'
split=1
if [[ " ${STOATFLOW_TEST_FLAGS:-} " == *" -run"* || " ${STOATFLOW_TEST_FLAGS:-} " == *" -skip"* ]]; then
	split=0
fi
crash_skip=()
if ((split)); then
	crash_skip=(-skip "$quiet")
	pass quiet "${tags[@]}" -timeout 40m -run "$quiet" ./integration/ &
	quiet_pass=$!
fi
pass crash "${tags[@]}" -timeout 40m -run '^TestCrash' "${crash_skip[@]}" ./integration/ &
crash=$!
race_pkgs=()
for p in state txn kstreams streams metrics sidecar/internal/httpapi; do
	[[ -n "$(find "$p" -name '*_test.go' -print -quit 2>/dev/null)" ]] && race_pkgs+=("./$p/...")
done
rc=0
pass invariants "${tags[@]}" -timeout 30m ./internal/... ./sidecar/internal/... ./state/... ./txn/... ./streams/... || rc=1
if ((rc == 0 && ${#race_pkgs[@]})); then
	pass race -race -short -timeout 30m -skip "$arms_failpoints" "${race_pkgs[@]}" || rc=1
fi
wait "$crash" || rc=1
if ((split)); then
	wait "$quiet_pass" || rc=1
fi
if ((rc != 0)); then
	exit 1
fi
echo "test: all passes ok (logs in .cache/test-*.log)" >&2
