# StoatFlow: the commands a developer and CI run. `make help` lists them.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

GO            ?= go
KAFKA_PORT    ?= 9092
STATICCHECK   := honnef.co/go/tools/cmd/staticcheck@v0.8.2
CACHE         := $(CURDIR)/.cache
export GOBIN  := $(CACHE)/bin
export STOATFLOW_KAFKA_PORT := $(KAFKA_PORT)

.PHONY: help setup lint test test-go kafka-up kafka-down kafka-reset demo

help:
	@echo "make setup       install what the build needs (librocksdb-dev, Go modules, linters, Maven jars)"
	@echo "make test        setup + lint + start Kafka 4.4 + all tests (integration included) + stop Kafka"
	@echo "make demo        word count end to end on a local Kafka 4.4 broker (started and stopped for you)"
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

# test runs everything on a fresh machine: set-up, lint, a real broker, every
# test including the integration ones, and stops the broker even on failure.
test: setup lint
	@scripts/test.sh

demo: setup
	@scripts/demo.sh
