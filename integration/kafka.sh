#!/usr/bin/env bash
# Runs a single-node Apache Kafka 4.4.0 broker (KRaft, broker+controller in one
# process) on 127.0.0.1 from Maven Central jars, for tests, benchmarks and demos.
#
#   integration/kafka.sh up       start (idempotent), print the bootstrap address
#   integration/kafka.sh down     stop by pid, leave no process behind
#   integration/kafka.sh status   print the address if running, exit 1 if not
#   integration/kafka.sh reset    stop and delete the broker's data
#   integration/kafka.sh jars     resolve the Kafka jars only, print their folder
#                                 (integration/cluster.sh and internal/testcluster use it)
#
# Environment:
#   STOATFLOW_KAFKA_PORT          client port (default 9092); the controller uses port+1
#   STOATFLOW_KAFKA_HOME          where jars and data live (default <repo>/.cache)
#   STOATFLOW_KAFKA_READY_TIMEOUT seconds to wait for readiness (default 120)
#   STOATFLOW_KAFKA_HEAP          JVM heap (default 768m)
set -euo pipefail

KAFKA_VERSION=4.4.0
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
port="${STOATFLOW_KAFKA_PORT:-9092}"
cport=$((port + 1))
home="${STOATFLOW_KAFKA_HOME:-$repo/.cache}"
lib="$home/kafka-$KAFKA_VERSION/lib"
run="$home/kafka-run/$port"
pidfile="$run/kafka.pid"
log="$run/server.log"
timeout="${STOATFLOW_KAFKA_READY_TIMEOUT:-120}"
heap="${STOATFLOW_KAFKA_HEAP:-768m}"

say() { printf 'kafka.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

running_pid() {
	[[ -f "$pidfile" ]] || return 1
	local pid
	pid="$(cat "$pidfile")"
	[[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
	# A recycled pid is not our broker.
	tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "kafka.Kafka $run/server.properties" || return 1
	echo "$pid"
}

resolve_jars() {
	if [[ -f "$lib/.complete" ]]; then
		return
	fi
	command -v mvn >/dev/null || die "mvn not found: install Maven (apt-get install maven) to resolve the Kafka $KAFKA_VERSION jars"
	command -v java >/dev/null || die "java not found: install a JDK 17 (apt-get install openjdk-17-jdk-headless)"
	say "resolving Apache Kafka $KAFKA_VERSION jars from Maven Central into $lib"
	rm -rf "$lib"
	mkdir -p "$lib"
	if ! mvn -B -q -f "$here/broker/pom.xml" dependency:copy-dependencies \
		-DincludeScope=runtime -DoutputDirectory="$lib" >"$home/kafka-mvn.log" 2>&1; then
		tail -n 30 "$home/kafka-mvn.log" >&2
		die "could not resolve the Kafka jars (log: $home/kafka-mvn.log)"
	fi
	touch "$lib/.complete"
}

write_configs() {
	mkdir -p "$run/data"
	cat >"$run/server.properties" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$cport
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$cport
advertised.listeners=PLAINTEXT://127.0.0.1:$port
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
log.dirs=$run/data
num.partitions=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=10
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
default.replication.factor=1
min.insync.replicas=1
auto.create.topics.enable=false
group.initial.rebalance.delay.ms=0
# Streams groups keep Kafka's defaults (a 45 s session); the lower bounds
# let a test set a shorter session for its group (streams.session.timeout.ms),
# as it sets main.consumer.session.timeout.ms for a classic one.
group.streams.min.session.timeout.ms=6000
group.streams.min.heartbeat.interval.ms=1000
# Streams groups keep the topology descriptions their members push (KIP-1331),
# which StreamsGroupDescribe v1 returns; the broker's in-memory plugin keeps
# them until the broker stops.
group.streams.topology.description.plugin.class=org.apache.kafka.server.streams.InMemoryTopologyDescriptionPlugin
transaction.abort.timed.out.transaction.cleanup.interval.ms=1000
log.flush.interval.messages=9223372036854775807
log.retention.check.interval.ms=60000
EOF
	cat >"$run/log4j2.properties" <<EOF
status = error
appender.file.type = File
appender.file.name = FILE
appender.file.fileName = $log
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = FILE
logger.kafka.name = kafka
logger.kafka.level = INFO
logger.state.name = state.change.logger
logger.state.level = WARN
logger.controller.name = org.apache.kafka.controller
logger.controller.level = WARN
EOF
}

java_args() {
	jvm=(java -Xms256m "-Xmx$heap" -XX:+UseG1GC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true
		"-Dlog4j2.configurationFile=$run/log4j2.properties" -cp "$lib/*")
}

java_cmd() {
	java_args
	"${jvm[@]}" "$@"
}

format_storage() {
	[[ -f "$run/data/meta.properties" ]] && return
	local id
	id="$(java_cmd kafka.tools.StorageTool random-uuid 2>/dev/null | tail -n 1)"
	[[ ${#id} -eq 22 ]] || die "StorageTool random-uuid printed '$id', not a 22-character cluster id"
	if ! java_cmd kafka.tools.StorageTool format --cluster-id "$id" \
		--config "$run/server.properties" --ignore-formatted >"$run/format.log" 2>&1; then
		cat "$run/format.log" >&2
		die "formatting KRaft storage in $run/data failed"
	fi
}

port_busy() {
	(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

up() {
	local pid
	if pid="$(running_pid)"; then
		say "already running (pid $pid)"
		echo "127.0.0.1:$port"
		return
	fi
	port_busy "$port" && die "port $port is in use by another process; set STOATFLOW_KAFKA_PORT to a free port"
	resolve_jars
	write_configs
	format_storage
	: >"$log"
	# setsid: the broker must not die with the shell that started it.
	java_args
	setsid "${jvm[@]}" kafka.Kafka "$run/server.properties" >"$run/stdout.log" 2>&1 </dev/null &
	pid=$!
	echo "$pid" >"$pidfile"
	local waited=0
	until grep -q "Kafka Server started" "$log" 2>/dev/null; do
		if ! kill -0 "$pid" 2>/dev/null; then
			say "broker exited during startup; last lines of $log and $run/stdout.log:"
			tail -n 40 "$log" "$run/stdout.log" >&2 || true
			rm -f "$pidfile"
			exit 1
		fi
		if ((waited >= timeout * 5)); then
			say "broker not ready after ${timeout}s; last lines of $log:"
			tail -n 40 "$log" >&2 || true
			down
			exit 1
		fi
		sleep 0.2
		waited=$((waited + 1))
	done
	say "Apache Kafka $KAFKA_VERSION ready (pid $pid, data $run/data)"
	echo "127.0.0.1:$port"
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
			say "broker did not stop in 30s; killing pid $pid"
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
	if pid="$(running_pid)"; then echo "127.0.0.1:$port"; else exit 1; fi
	;;
reset)
	down
	rm -rf "$run"
	;;
jars)
	resolve_jars
	echo "$lib"
	;;
*)
	die "usage: $0 up|down|status|reset|jars"
	;;
esac
