#!/usr/bin/env bash
# Word count end to end on StoatFlow or on its Kafka Streams 4.4 twin:
#
#   scripts/demo.sh embedded   on StoatFlow with an embedded broker (make demo)
#   scripts/demo.sh stoatflow  on StoatFlow on the local Apache Kafka 4.4 broker,
#                              started when none runs and stopped after (make demo-kafka)
#   scripts/demo.sh jvm        on Kafka Streams 4.4 there (make demo-jvm)
#
# Each feeds the same sample lines and prints the counts as they change.
# StoatFlow's sidecar is built first, with a line
# every few seconds while it compiles (the first build compiles RocksDB's
# cgo bindings and takes a minute or two).
#
# Environment: GO (default go); STOATFLOW_DEMO_BIN, where the sidecar is
# built (default .cache/demo/sidecar); STOATFLOW_DEMO_PROGRESS_SECONDS, the
# seconds between two progress lines (default 5).
set -euo pipefail
cd "$(dirname "$0")/.."

GO="${GO:-go}"
every="${STOATFLOW_DEMO_PROGRESS_SECONDS:-5}"
bin="${STOATFLOW_DEMO_BIN:-$PWD/.cache/demo/sidecar}"

say() { printf 'demo: %s\n' "$*" >&2; }

# build compiles ./cmd/sidecar into $bin, saying how far it got every
# $every seconds; on failure it prints the compiler's output.
build() {
	mkdir -p "$(dirname "$bin")"
	local log pid t=0
	log="$(mktemp)"
	say "building the sidecar (./cmd/sidecar) ..."
	"$GO" build -v -o "$bin" ./cmd/sidecar 2>"$log" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		((++t % every == 0)) || continue
		kill -0 "$pid" 2>/dev/null || break
		local n last
		n="$(grep -vc '^go: ' "$log" || true)"
		last="$(grep -v '^go: ' "$log" | tail -n1 || true)"
		say "  ${t}s: $n packages compiled${last:+, the last $last}"
	done
	if ! wait "$pid"; then
		cat "$log" >&2
		rm -f "$log"
		say "the build failed"
		exit 1
	fi
	rm -f "$log"
	say "built $bin in ${t}s"
}

case "${1:-embedded}" in
embedded)
	build
	exec "$bin" demo
	;;
stoatflow)
	build
	exec scripts/with-broker.sh bash -c '"$0" demo --bootstrap "$STOATFLOW_TEST_BOOTSTRAP"' "$bin"
	;;
jvm) exec scripts/with-broker.sh bash -c '"$0" run ./integration/cmd/refdemo -bootstrap "$STOATFLOW_TEST_BOOTSTRAP"' "$GO" ;;
*)
	echo "usage: scripts/demo.sh [embedded|stoatflow|jvm]" >&2
	exit 2
	;;
esac
