package compat

import "strings"

func set(names string) map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(names) {
		m[n] = true
	}
	return m
}

// commonClientNames are the keys every Java client (consumer, producer, admin)
// defines in Kafka 4.4: CommonClientConfigs plus the SSL and SASL settings.
var commonClientNames = set(`
bootstrap.servers client.dns.lookup client.id connections.max.idle.ms receive.buffer.bytes send.buffer.bytes
reconnect.backoff.ms reconnect.backoff.max.ms retry.backoff.ms retry.backoff.max.ms request.timeout.ms
metadata.max.age.ms metric.reporters metrics.num.samples metrics.sample.window.ms metrics.recording.level
security.protocol security.providers socket.connection.setup.timeout.ms socket.connection.setup.timeout.max.ms
enable.metrics.push metadata.recovery.strategy metadata.recovery.rebootstrap.trigger.ms metadata.cluster.check.enable config.providers
ssl.protocol ssl.provider ssl.cipher.suites ssl.enabled.protocols ssl.keystore.type ssl.keystore.location
ssl.keystore.password ssl.key.password ssl.keystore.key ssl.keystore.certificate.chain ssl.truststore.certificates
ssl.truststore.type ssl.truststore.location ssl.truststore.password ssl.keymanager.algorithm ssl.trustmanager.algorithm
ssl.endpoint.identification.algorithm ssl.secure.random.implementation ssl.engine.factory.class
sasl.mechanism sasl.jaas.config sasl.client.callback.handler.class sasl.login.callback.handler.class sasl.login.class
sasl.kerberos.service.name sasl.kerberos.kinit.cmd sasl.kerberos.ticket.renew.window.factor sasl.kerberos.ticket.renew.jitter
sasl.kerberos.min.time.before.relogin sasl.login.refresh.window.factor sasl.login.refresh.window.jitter
sasl.login.refresh.min.period.seconds sasl.login.refresh.buffer.seconds sasl.login.connect.timeout.ms sasl.login.read.timeout.ms
sasl.login.retry.backoff.max.ms sasl.login.retry.backoff.ms sasl.oauthbearer.scope.claim.name sasl.oauthbearer.sub.claim.name
sasl.oauthbearer.token.endpoint.url sasl.oauthbearer.jwks.endpoint.url sasl.oauthbearer.jwks.endpoint.refresh.ms
sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms sasl.oauthbearer.jwks.endpoint.retry.backoff.ms
sasl.oauthbearer.clock.skew.seconds sasl.oauthbearer.expected.audience sasl.oauthbearer.expected.issuer
sasl.oauthbearer.header.urlencode sasl.oauthbearer.jwt.retriever.class sasl.oauthbearer.jwt.validator.class
sasl.oauthbearer.client.credentials.client.id sasl.oauthbearer.client.credentials.client.secret sasl.oauthbearer.scope
sasl.oauthbearer.assertion.algorithm sasl.oauthbearer.assertion.claim.aud sasl.oauthbearer.assertion.claim.exp.seconds
sasl.oauthbearer.assertion.claim.iss sasl.oauthbearer.assertion.claim.jti.include sasl.oauthbearer.assertion.claim.nbf.seconds
sasl.oauthbearer.assertion.claim.sub sasl.oauthbearer.assertion.file sasl.oauthbearer.assertion.private.key.file
sasl.oauthbearer.assertion.private.key.passphrase sasl.oauthbearer.assertion.template.file
`)

// consumerOnlyNames are ConsumerConfig's own keys.
var consumerOnlyNames = set(`
group.id group.instance.id group.protocol group.remote.assignor max.poll.records max.poll.interval.ms session.timeout.ms
heartbeat.interval.ms partition.assignment.strategy enable.auto.commit auto.commit.interval.ms client.rack
max.partition.fetch.bytes fetch.min.bytes fetch.max.bytes fetch.max.wait.ms auto.offset.reset check.crcs
key.deserializer value.deserializer default.api.timeout.ms interceptor.classes exclude.internal.topics
isolation.level allow.auto.create.topics share.acknowledgement.mode
`)

// producerOnlyNames are ProducerConfig's own keys.
var producerOnlyNames = set(`
acks batch.size buffer.memory compression.type compression.gzip.level compression.lz4.level compression.zstd.level
delivery.timeout.ms enable.idempotence interceptor.classes key.serializer value.serializer linger.ms max.block.ms
max.in.flight.requests.per.connection max.request.size metadata.max.idle.ms partitioner.class partitioner.ignore.keys
partitioner.adaptive.partitioning.enable partitioner.availability.timeout.ms retries transaction.timeout.ms
transactional.id client.rack
`)

// adminOnlyNames are AdminClientConfig's own keys.
var adminOnlyNames = set(`default.api.timeout.ms retries`)

// ClientKind names one of the clients Kafka Streams creates.
type ClientKind int

// The clients of a Kafka Streams instance.
const (
	MainConsumer ClientKind = iota
	RestoreConsumer
	GlobalConsumer
	Producer
	Admin
)

// String returns the client's name as the config printer shows it.
func (k ClientKind) String() string {
	return [...]string{"main consumer", "restore consumer", "global consumer", "producer", "admin"}[k]
}

func (k ClientKind) isConsumer() bool { return k <= GlobalConsumer }

// isClientName reports whether name is a Java config of the client kind.
func isClientName(k ClientKind, name string) bool {
	if commonClientNames[name] {
		return true
	}
	switch {
	case k.isConsumer():
		return consumerOnlyNames[name]
	case k == Producer:
		return producerOnlyNames[name]
	}
	return adminOnlyNames[name]
}

// isAnyClientName reports whether name is a config of any Java client.
func isAnyClientName(name string) bool {
	return commonClientNames[name] || consumerOnlyNames[name] || producerOnlyNames[name] || adminOnlyNames[name]
}

// secretForeignKeys are not Java client keys but names other Kafka clients
// give their secrets (sasl.password and the like). A file that carries one
// gets it reported as unknown, and its value is hidden all the same.
var secretForeignKeys = set(`
sasl.password ssl.key.password ssl.keystore.password ssl.key.pem sasl.oauthbearer.client.secret
sasl.oauthbearer.client.credentials.client.secret sasl.oauthbearer.assertion.private.key.passphrase
sasl.oauthbearer.assertion.private.key.pem sasl.oauthbearer.config
`)

// secretJavaKeys are Java client keys whose values are secrets (PASSWORD type).
var secretJavaKeys = set(`
sasl.jaas.config ssl.key.password ssl.keystore.password ssl.truststore.password ssl.keystore.key
sasl.oauthbearer.client.credentials.client.secret sasl.oauthbearer.assertion.private.key.passphrase
ssl.keystore.certificate.chain ssl.truststore.certificates
`)

// IsSecretKey reports whether a .properties key (bare or client-prefixed) holds
// a secret that must never be printed or logged.
func IsSecretKey(name string) bool {
	if name == HTTPAuthTokenConfig {
		return true
	}
	for _, p := range []string{MainConsumerPrefix, RestoreConsumerPrefix, GlobalConsumerPrefix, ConsumerPrefix, ProducerPrefix, AdminPrefix} {
		if strings.HasPrefix(name, p) {
			name = strings.TrimPrefix(name, p)
			break
		}
	}
	return secretJavaKeys[name] || secretForeignKeys[name]
}
