#!/usr/bin/env bash
# Runs a command with STOATFLOW_TEST_REGISTRY_URL pointing at the local schema
# registry (integration/registry.sh), starting it first when none runs and
# stopping it after.
set -euo pipefail
cd "$(dirname "$0")/.."
started=0
if ! url="$(integration/registry.sh status 2>/dev/null)"; then
	url="$(integration/registry.sh up)"
	started=1
fi
stop() {
	if ((started)); then integration/registry.sh down || true; fi
}
trap stop EXIT
export STOATFLOW_TEST_REGISTRY_URL="$url"
"$@"
