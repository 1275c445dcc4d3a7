package compat

import (
	"strconv"
	"strings"
)

// clientTypes are the ConfigDef types of the Java client keys StoatFlow
// checks, so a bad client value is reported with its position at start-up, in
// the words the Java client would use, instead of failing later inside
// librdkafka. Keys missing here are passed on as written.
var clientTypes = func() map[string]Type {
	m := map[string]Type{}
	add := func(t Type, names string) {
		for _, n := range strings.Fields(names) {
			m[n] = t
		}
	}
	add(TypeInt, `receive.buffer.bytes send.buffer.bytes request.timeout.ms metrics.num.samples max.poll.records
max.poll.interval.ms session.timeout.ms heartbeat.interval.ms auto.commit.interval.ms max.partition.fetch.bytes
fetch.min.bytes fetch.max.bytes fetch.max.wait.ms default.api.timeout.ms batch.size compression.gzip.level
compression.lz4.level compression.zstd.level delivery.timeout.ms max.in.flight.requests.per.connection
max.request.size retries transaction.timeout.ms sasl.login.connect.timeout.ms sasl.login.read.timeout.ms
sasl.oauthbearer.clock.skew.seconds`)
	add(TypeLong, `connections.max.idle.ms reconnect.backoff.ms reconnect.backoff.max.ms retry.backoff.ms retry.backoff.max.ms
metadata.max.age.ms metrics.sample.window.ms socket.connection.setup.timeout.ms socket.connection.setup.timeout.max.ms
metadata.recovery.rebootstrap.trigger.ms buffer.memory linger.ms max.block.ms metadata.max.idle.ms
partitioner.availability.timeout.ms sasl.kerberos.min.time.before.relogin sasl.login.retry.backoff.max.ms
sasl.login.retry.backoff.ms sasl.oauthbearer.jwks.endpoint.refresh.ms sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms
sasl.oauthbearer.jwks.endpoint.retry.backoff.ms`)
	add(TypeShort, `sasl.login.refresh.min.period.seconds sasl.login.refresh.buffer.seconds`)
	add(TypeDouble, `sasl.kerberos.ticket.renew.window.factor sasl.kerberos.ticket.renew.jitter
sasl.login.refresh.window.factor sasl.login.refresh.window.jitter`)
	add(TypeBoolean, `enable.metrics.push enable.auto.commit check.crcs exclude.internal.topics allow.auto.create.topics
enable.idempotence partitioner.ignore.keys partitioner.adaptive.partitioning.enable sasl.oauthbearer.header.urlencode`)
	add(TypeList, `bootstrap.servers metric.reporters ssl.cipher.suites ssl.enabled.protocols partition.assignment.strategy
interceptor.classes sasl.oauthbearer.expected.audience`)
	add(TypePassword, `ssl.keystore.password ssl.key.password ssl.keystore.key ssl.keystore.certificate.chain
ssl.truststore.certificates ssl.truststore.password sasl.jaas.config`)
	return m
}()

// normalizeClientValue parses a Java client value as the Java client would and
// renders it for librdkafka (trimmed, booleans lower-case, lists joined with
// commas). It returns Kafka's message when the Java client would refuse it.
func normalizeClientValue(name, raw string) (string, error) {
	t, ok := clientTypes[name]
	if !ok {
		return raw, nil
	}
	v, err := ParseValue(name, raw, t)
	if err != nil {
		return "", err
	}
	switch t {
	case TypeBoolean:
		return strconv.FormatBool(v.Bool), nil
	case TypeInt, TypeShort, TypeLong:
		return strconv.FormatInt(v.Int, 10), nil
	case TypeList:
		return strings.Join(v.List, ","), nil
	case TypeDouble:
		return strconv.FormatFloat(v.Float, 'g', -1, 64), nil
	}
	return v.Str, nil
}
