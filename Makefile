# StoatFlow: the commands a developer and CI run. `make help` lists them.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

GO            ?= go
KAFKA_PORT    ?= 9092
STATICCHECK   := honnef.co/go/tools/cmd/staticcheck@v0.8.2
CACHE         := $(CURDIR)/.cache
export GOBIN  := $(CACHE)/bin
export STOATFLOW_KAFKA_PORT := $(KAFKA_PORT)

.PHONY: help setup lint test kafka-up kafka-down kafka-reset registry-up registry-down demo demo-kafka demo-jvm bench crash-soak

help:
	@echo "make setup       install what the build and tests need (librocksdb-dev, Java and Maven, Go modules, staticcheck)"
	@echo "make test        setup + lint + start Kafka 4.4 + all tests (integration included) + stop Kafka"
	@echo "make demo        word count end to end on StoatFlow with an embedded broker (needs Go and librocksdb-dev only)"
	@echo "make demo-kafka  the same demo on the local Kafka 4.4 broker (started and stopped for you)"
	@echo "make demo-jvm    the Kafka Streams 4.4 twin of the word count on the local broker"
	@echo "make bench       StoatFlow vs Kafka Streams 4.4 and raw client ceilings on a local Kafka 4.4 broker (~45 min; see BENCHMARKS.md)"
	@echo "make crash-soak  KILLS=2000 SEED=42: the exactly-once crash suite with thousands of SIGKILLs (docs/crash-testing.md)"
	@echo "make kafka-up    start the local Apache Kafka 4.4.0 broker (prints its bootstrap address)"
	@echo "make kafka-down  stop it"

setup:
	@scripts/setup.sh

lint:
	@scripts/lint.sh

kafka-up:
	@integration/kafka.sh up

kafka-down:
	@integration/kafka.sh down

kafka-reset:
	@integration/kafka.sh reset

registry-up:
	@integration/registry.sh up

registry-down:
	@integration/registry.sh down

# test runs everything on a fresh machine: set-up, lint, a real broker, every
# test including the integration ones (in the production build, with
# failpoints and invariants compiled in, and under the race detector; see
# scripts/test.sh), and stops the broker even on failure.
test: setup lint
	@scripts/test.sh

# demo needs only Go and RocksDB: setup.sh demo installs librocksdb-dev when
# it is missing, and demo.sh builds the sidecar with a progress line every few
# seconds, then runs its demo.
demo:
	@scripts/setup.sh demo
	@GO=$(GO) scripts/demo.sh embedded

demo-kafka: setup
	@GO=$(GO) scripts/demo.sh stoatflow

demo-jvm: setup
	@GO=$(GO) scripts/demo.sh jvm

# bench starts the local broker on KAFKA_PORT when none runs there (and stops
# it after), and the schema registry for the avro workload likewise
# (scripts/with-registry.sh), runs every workload and prints the table; knobs
# in BENCHMARKS.md.
bench: setup
	@scripts/with-registry.sh $(GO) run ./integration/bench $(BENCH_FLAGS)

# crash-soak runs the crash suite's workloads with KILLS kills each, seeded,
# against the local broker, and prints one summary line per workload. The
# suite needs failpoints compiled in; the children also run the commit-path
# assertions (see docs/crash-testing.md).
KILLS ?= 2000
SEED  ?= 42
crash-soak: setup
	@scripts/with-broker.sh bash -c "set -o pipefail; $(GO) test -tags failpoint,invariants -count=1 -v -run 'TestCrash.*(ExactlyOnce|AtLeastOnce)' -timeout 0 ./integration/ \
		-args -crash.kills=$(KILLS) -crash.seed=$(SEED) | grep -E 'crash summary|^(--- |ok|FAIL)'"
