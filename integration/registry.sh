#!/usr/bin/env bash
# Runs a schema registry that speaks Confluent's Schema Registry REST API on
# 127.0.0.1, for tests, benchmarks and demos: Apicurio Registry 3.0.9 from its
# Maven Central distribution (io.apicurio:apicurio-registry-app:3.0.9:tar.gz:all),
# whose Confluent-compatible API lives under /apis/ccompat/v7. Its storage is
# in-memory: a restart forgets every schema, as a fresh test registry should.
#
# 3.0.9 is the newest Apicurio Registry 3.x whose classes run on Java 17;
# later 3.x releases are compiled for Java 21.
#
#   integration/registry.sh up       start (idempotent), print the registry URL
#   integration/registry.sh down     stop by pid, leave no process behind
#   integration/registry.sh status   print the URL if running, exit 1 if not
#
# Environment:
#   STOATFLOW_REGISTRY_PORT          HTTP port (default 8081)
#   STOATFLOW_REGISTRY_HOME          where the distribution and logs live (default <repo>/.cache)
#   STOATFLOW_REGISTRY_READY_TIMEOUT seconds to wait for readiness (default 120)
#   STOATFLOW_REGISTRY_HEAP          JVM heap (default 384m)
set -euo pipefail

APICURIO_VERSION=3.0.9
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
port="${STOATFLOW_REGISTRY_PORT:-8081}"
home="${STOATFLOW_REGISTRY_HOME:-$repo/.cache}"
dist="$home/apicurio-registry-$APICURIO_VERSION"
jar="$dist/apicurio-registry-app-$APICURIO_VERSION-runner.jar"
run="$home/registry-run/$port"
pidfile="$run/registry.pid"
log="$run/registry.log"
timeout="${STOATFLOW_REGISTRY_READY_TIMEOUT:-120}"
heap="${STOATFLOW_REGISTRY_HEAP:-384m}"
url="http://127.0.0.1:$port/apis/ccompat/v7"

say() { printf 'registry.sh: %s\n' "$*" >&2; }
die() {
	say "$*"
	exit 1
}

running_pid() {
	[[ -f "$pidfile" ]] || return 1
	local pid
	pid="$(cat "$pidfile")"
	[[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
	# A recycled pid is not our registry.
	tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "-Dquarkus.http.port=$port .*-jar $jar" || return 1
	echo "$pid"
}

resolve_dist() {
	if [[ -f "$dist/.complete" ]]; then
		return
	fi
	command -v mvn >/dev/null || die "mvn not found: install Maven (apt-get install maven) to fetch Apicurio Registry $APICURIO_VERSION"
	command -v java >/dev/null || die "java not found: install a JDK 17 (apt-get install openjdk-17-jdk-headless)"
	say "fetching Apicurio Registry $APICURIO_VERSION from Maven Central into $dist"
	rm -rf "$dist" "$home/apicurio-download"
	mkdir -p "$dist" "$home/apicurio-download"
	if ! (cd "$home/apicurio-download" && mvn -B -q dependency:copy \
		"-Dartifact=io.apicurio:apicurio-registry-app:$APICURIO_VERSION:tar.gz:all" \
		-DoutputDirectory="$home/apicurio-download") >"$home/registry-mvn.log" 2>&1; then
		tail -n 30 "$home/registry-mvn.log" >&2
		die "could not fetch the Apicurio Registry distribution (log: $home/registry-mvn.log)"
	fi
	tar -xzf "$home/apicurio-download/apicurio-registry-app-$APICURIO_VERSION-all.tar.gz" -C "$dist"
	rm -rf "$home/apicurio-download"
	[[ -f "$jar" ]] || die "the distribution has no $(basename "$jar")"
	touch "$dist/.complete"
}

ready() {
	curl -fsS -o /dev/null --max-time 2 "$url/subjects" 2>/dev/null
}

port_busy() {
	(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

up() {
	local pid
	if pid="$(running_pid)"; then
		say "already running (pid $pid)"
		echo "$url"
		return
	fi
	command -v curl >/dev/null || die "curl not found: install it (apt-get install curl) to check the registry's readiness"
	port_busy "$port" && die "port $port is in use by another process; set STOATFLOW_REGISTRY_PORT to a free port"
	resolve_dist
	mkdir -p "$run"
	: >"$log"
	# setsid: the registry must not die with the shell that started it.
	# Deletion is enabled so that tests can remove the subjects they made.
	cd "$run"
	setsid java -Xms64m "-Xmx$heap" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
		-Djava.awt.headless=true \
		-Dquarkus.http.host=127.0.0.1 "-Dquarkus.http.port=$port" \
		-Dapicurio.rest.deletion.artifact.enabled=true \
		-Dapicurio.rest.deletion.artifact-version.enabled=true \
		-Dapicurio.rest.deletion.group.enabled=true \
		-jar "$jar" >"$log" 2>&1 </dev/null &
	pid=$!
	echo "$pid" >"$pidfile"
	local waited=0
	until ready; do
		if ! kill -0 "$pid" 2>/dev/null; then
			say "registry exited during startup; last lines of $log:"
			tail -n 40 "$log" >&2 || true
			rm -f "$pidfile"
			exit 1
		fi
		if ((waited >= timeout * 5)); then
			say "registry not ready after ${timeout}s; last lines of $log:"
			tail -n 40 "$log" >&2 || true
			down
			exit 1
		fi
		sleep 0.2
		waited=$((waited + 1))
	done
	say "Apicurio Registry $APICURIO_VERSION ready (pid $pid, Confluent API at $url)"
	echo "$url"
}

down() {
	local pid
	if ! pid="$(running_pid)"; then
		rm -f "$pidfile"
		say "not running"
		return
	fi
	kill -TERM "$pid" 2>/dev/null || true
	local waited=0
	while kill -0 "$pid" 2>/dev/null; do
		if ((waited >= 300)); then
			say "registry did not stop in 30s; killing pid $pid"
			kill -KILL "$pid" 2>/dev/null || true
		fi
		sleep 0.1
		waited=$((waited + 1))
	done
	rm -f "$pidfile"
	say "stopped (pid $pid)"
}

case "${1:-}" in
up) up ;;
down) down ;;
status)
	if running_pid >/dev/null && ready; then echo "$url"; else exit 1; fi
	;;
*)
	die "usage: $0 up|down|status"
	;;
esac
