#!/usr/bin/env bash
# Installs what StoatFlow's build and tests need on a fresh machine, and does
# nothing when it is all there.
#
#   scripts/setup.sh [all]    make test and make bench: Debian's librocksdb-dev
#                             (RocksDB 7.8.3, for grocksdb), Java and Maven (the
#                             local Kafka broker and the Kafka Streams reference
#                             apps), Go modules, staticcheck
#   scripts/setup.sh demo     make demo: librocksdb-dev only; go build fetches
#                             the sidecar's modules
#   scripts/setup.sh MODE --plan
#                             print what MODE installs on a bare machine, one
#                             item a line, and install nothing
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'setup: %s\n' "$*" >&2; }

mode=all plan=0
for a in "$@"; do
	case "$a" in
	all | demo) mode="$a" ;;
	--plan) plan=1 ;;
	*)
		echo "usage: scripts/setup.sh [all|demo] [--plan]" >&2
		exit 2
		;;
	esac
done

# What each mode needs: apt packages with the command or file that shows
# each is there, then the Go-side steps.
apt_need=("librocksdb-dev:/usr/include/rocksdb/c.h")
go_need=()
if [[ $mode == all ]]; then
	apt_need+=("openjdk-17-jdk-headless:java" "maven:mvn")
	go_need+=("go-modules" "staticcheck")
fi

if ((plan)); then
	for n in "${apt_need[@]}"; do printf 'apt %s\n' "${n%%:*}"; done
	for n in "${go_need[@]}"; do printf 'go %s\n' "$n"; done
	exit 0
fi

missing=()
for n in "${apt_need[@]}"; do
	pkg="${n%%:*}" probe="${n#*:}"
	if [[ $probe == /* ]]; then
		[[ -f $probe ]] || missing+=("$pkg")
	else
		command -v "$probe" >/dev/null || missing+=("$pkg")
	fi
done
if ((${#missing[@]})); then
	say "installing ${missing[*]} with apt-get"
	if [[ $(id -u) -ne 0 ]]; then sudo=sudo; else sudo=; fi
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
rocks="$(dpkg-query -W -f='${Version}' librocksdb-dev 2>/dev/null || true)"
case "$rocks" in
7.8.3*) ;;
*) say "warning: librocksdb-dev is '$rocks'; grocksdb v1.7.14 is pinned for RocksDB 7.8.3" ;;
esac

for n in "${go_need[@]}"; do
	case "$n" in
	go-modules)
		# Fetch only the modules the build and tests need (go mod download
		# would also fetch the test dependencies of every dependency).
		go list -deps -test ./... >/dev/null
		;;
	staticcheck)
		if [[ ! -x "${GOBIN:-.cache/bin}/staticcheck" ]]; then
			say "installing staticcheck"
			GOBIN="${GOBIN:-$PWD/.cache/bin}" go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
		fi
		;;
	esac
done
