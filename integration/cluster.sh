#!/usr/bin/env bash
# Runs a three-node Apache Kafka 4.4.0 cluster on 127.0.0.1 (each node broker
# and controller, a three-voter KRaft quorum; replication factor 3 and
# min.insync.replicas=2 for internal topics, offsets and transactions), the
# layout the cluster fault tests start (internal/testcluster). Each broker's
# client listener is advertised at a TCP proxy that the cluster command owns,
# so that connections can be cut or stalled by hand.
#
#   integration/cluster.sh up          start an empty cluster, print the bootstrap address
#   integration/cluster.sh down        stop it, leave no process behind
#   integration/cluster.sh status      print the bootstrap address if running, exit 1 if not
#   integration/cluster.sh do CMD...   a fault or a lookup: kill|stop|continue|restart|cut|stall|resume N,
#                                      heal, leader TOPIC PARTITION, group-coordinator GROUP,
#                                      txn-coordinator ID, quorum-leader
#
# Environment:
#   STOATFLOW_KAFKA_HOME          where jars and data live (default <repo>/.cache)
#   STOATFLOW_CLUSTER_HEAP        each JVM's heap (default 512m)
#   STOATFLOW_KAFKA_READY_TIMEOUT seconds to wait for the nodes (default 180)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
home="${STOATFLOW_KAFKA_HOME:-$repo/.cache}"
run="$home/cluster-run"
bin="$home/bin/stoatflow-cluster"
pidfile="$home/cluster.pid"
log="$home/cluster.log"

say() { printf 'cluster.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

running_pid() {
	[[ -f "$pidfile" ]] || return 1
	local pid
	pid="$(cat "$pidfile")"
	[[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
	# A recycled pid is not our cluster.
	tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "-dir $run" || return 1
	echo "$pid"
}

bootstrap() { sed -n 's/^BOOTSTRAP=//p' "$run/cluster.env" 2>/dev/null; }

build() {
	mkdir -p "$home/bin"
	(cd "$repo" && go build -o "$bin" ./integration/cmd/cluster) || die "building integration/cmd/cluster failed"
}

up() {
	local pid
	if pid="$(running_pid)"; then
		say "already running (pid $pid)"
		bootstrap
		return
	fi
	"$here/kafka.sh" jars >/dev/null
	build
	: >"$log"
	# setsid: the cluster must not die with the shell that started it; the
	# JVMs die with the cluster command, however it ends.
	setsid "$bin" -dir "$run" >>"$log" 2>&1 </dev/null &
	pid=$!
	echo "$pid" >"$pidfile"
	until [[ -f "$run/cluster.env" ]]; do
		if ! kill -0 "$pid" 2>/dev/null; then
			rm -f "$pidfile"
			say "the cluster did not start; $log says:"
			tail -n 40 "$log" >&2 || true
			exit 1
		fi
		sleep 0.2
	done
	say "three-node Apache Kafka 4.4.0 cluster ready (pid $pid, nodes in $run/node-*, direct listeners $(sed -n 's/^DIRECT_BOOTSTRAP=//p' "$run/cluster.env"))"
	bootstrap
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
		if ((waited >= 600)); then
			say "the cluster did not stop in 60s; killing pid $pid (its JVMs die with it)"
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
	if running_pid >/dev/null; then bootstrap; else exit 1; fi
	;;
do)
	shift
	running_pid >/dev/null || die "not running: start it with $0 up"
	[[ -x "$bin" ]] || build
	"$bin" -dir "$run" -do "$*"
	;;
*)
	die "usage: $0 up|down|status|do CMD..."
	;;
esac
