package compat

// kgoOutcome is what becomes of one Java client key on a franz-go client.
type kgoOutcome int

const (
	// kgoMapped keys become a franz-go option (or a value the runtime reads
	// itself, such as max.poll.records); mapKgo handles each of them.
	kgoMapped kgoOutcome = iota
	// kgoNoEffect keys tune something a Go client does not have (the JVM,
	// Java's metrics, a broker-side check); they are dropped without a word.
	kgoNoEffect
	// kgoWarn keys have no franz-go equivalent but results and safety are
	// the same without them: a user value other than quiet is a warning.
	kgoWarn
	// kgoError keys cannot be honoured, and running without them would
	// change what the client does (how it authenticates, what it trusts): a
	// user value other than quiet is an error.
	kgoError
)

// kgoRule is the outcome of one Java client key and why.
type kgoRule struct {
	outcome kgoOutcome
	// why says what StoatFlow does instead (kgoNoEffect, kgoWarn, kgoError).
	why string
	// quiet is a value that is not reported (the Java default).
	quiet string
}

// kgoSecurityKeys are mapped as groups: TLS (tlsSpec) and SASL (saslSpec).
var kgoSecurityKeys = set(`security.protocol ssl.protocol ssl.enabled.protocols ssl.cipher.suites ssl.keystore.type
ssl.keystore.location ssl.keystore.password ssl.key.password ssl.keystore.key ssl.keystore.certificate.chain
ssl.truststore.certificates ssl.truststore.type ssl.truststore.location ssl.truststore.password
ssl.endpoint.identification.algorithm sasl.mechanism sasl.jaas.config sasl.kerberos.service.name
sasl.oauthbearer.token.endpoint.url sasl.oauthbearer.client.credentials.client.id
sasl.oauthbearer.client.credentials.client.secret sasl.oauthbearer.scope sasl.oauthbearer.header.urlencode
sasl.login.callback.handler.class sasl.login.connect.timeout.ms sasl.login.read.timeout.ms`)

// kgoMappedKeys are the other keys mapKgo turns into options, for every
// client that knows them (kgoRuleFor narrows a few by client).
var kgoMappedKeys = set(`receive.buffer.bytes send.buffer.bytes bootstrap.servers client.id client.dns.lookup connections.max.idle.ms metadata.max.age.ms
request.timeout.ms retry.backoff.ms retry.backoff.max.ms socket.connection.setup.timeout.ms enable.metrics.push
metadata.recovery.strategy metadata.cluster.check.enable group.id group.instance.id group.protocol max.poll.records max.poll.interval.ms
session.timeout.ms heartbeat.interval.ms enable.auto.commit client.rack max.partition.fetch.bytes fetch.min.bytes
fetch.max.bytes fetch.max.wait.ms auto.offset.reset check.crcs isolation.level allow.auto.create.topics acks
buffer.memory compression.type compression.gzip.level compression.lz4.level compression.zstd.level
batch.size delivery.timeout.ms enable.idempotence linger.ms max.in.flight.requests.per.connection max.request.size retries
transaction.timeout.ms transactional.id`)

const (
	whyJavaMetrics = "StoatFlow's metrics are on /metrics; Java metric settings have no effect"
	whyJVM         = "a setting of the JVM client with no effect on a Go client"
	whyBrokerSide  = "used by brokers to validate tokens; a client does not read it"
	whyLoginTiming = "franz-go asks for a token on every new connection; there is no login thread to tune"
	whyClassName   = "names a Java class, which a Go client cannot load"
)

// kgoRules are the keys that are not mapped: every key of the Java client
// catalogs (commonClientNames, consumerOnlyNames, producerOnlyNames,
// adminOnlyNames) is in exactly one of kgoSecurityKeys, kgoMappedKeys or
// kgoRules (TestEveryJavaClientKeyHasOneKgoOutcome).
var kgoRules = map[string]kgoRule{
	"metric.reporters":                                    {kgoWarn, "Java metric reporters cannot run in StoatFlow; its metrics are on /metrics", "org.apache.kafka.common.metrics.JmxReporter"},
	"metrics.num.samples":                                 {kgoNoEffect, whyJavaMetrics, ""},
	"metrics.sample.window.ms":                            {kgoNoEffect, whyJavaMetrics, ""},
	"metrics.recording.level":                             {kgoNoEffect, whyJavaMetrics, ""},
	"interceptor.classes":                                 {kgoWarn, "Java interceptors cannot run in StoatFlow; its metrics are on /metrics", ""},
	"config.providers":                                    {kgoNoEffect, "config providers are resolved when the files are read", ""},
	"security.providers":                                  {kgoError, "it " + whyClassName, ""},
	"ssl.engine.factory.class":                            {kgoError, "it " + whyClassName, ""},
	"sasl.client.callback.handler.class":                  {kgoError, "it " + whyClassName, ""},
	"sasl.login.class":                                    {kgoError, "it " + whyClassName, ""},
	"sasl.oauthbearer.jwt.retriever.class":                {kgoError, "it " + whyClassName, ""},
	"sasl.oauthbearer.jwt.validator.class":                {kgoError, "it " + whyClassName, ""},
	"ssl.provider":                                        {kgoWarn, "Go's crypto/tls is the TLS provider", ""},
	"ssl.keymanager.algorithm":                            {kgoWarn, "Go's crypto/tls chooses the client certificate itself", "SunX509"},
	"ssl.trustmanager.algorithm":                          {kgoWarn, "Go's crypto/x509 verifies the broker's chain (PKIX)", "PKIX"},
	"ssl.secure.random.implementation":                    {kgoWarn, "Go's crypto/rand is used", ""},
	"socket.connection.setup.timeout.max.ms":              {kgoNoEffect, "franz-go uses one dial timeout (socket.connection.setup.timeout.ms), without exponential growth", ""},
	"reconnect.backoff.ms":                                {kgoNoEffect, "franz-go backs off reconnects with its retry backoff (retry.backoff.ms)", ""},
	"reconnect.backoff.max.ms":                            {kgoNoEffect, "franz-go backs off reconnects with its retry backoff (retry.backoff.max.ms)", ""},
	"metadata.recovery.rebootstrap.trigger.ms":            {kgoNoEffect, "franz-go goes back to the bootstrap servers whenever it knows no live broker", ""},
	"sasl.kerberos.kinit.cmd":                             {kgoNoEffect, "no kinit is run: a keytab login is made in-process and a ticket cache is read directly", ""},
	"sasl.kerberos.ticket.renew.window.factor":            {kgoNoEffect, "the Kerberos client (gokrb5) renews its tickets on its own schedule", ""},
	"sasl.kerberos.ticket.renew.jitter":                   {kgoNoEffect, "the Kerberos client (gokrb5) renews its tickets on its own schedule", ""},
	"sasl.kerberos.min.time.before.relogin":               {kgoNoEffect, "the Kerberos client (gokrb5) renews its tickets on its own schedule", ""},
	"sasl.login.refresh.window.factor":                    {kgoNoEffect, whyLoginTiming, ""},
	"sasl.login.refresh.window.jitter":                    {kgoNoEffect, whyLoginTiming, ""},
	"sasl.login.refresh.min.period.seconds":               {kgoNoEffect, whyLoginTiming, ""},
	"sasl.login.refresh.buffer.seconds":                   {kgoNoEffect, whyLoginTiming, ""},
	"sasl.login.retry.backoff.max.ms":                     {kgoNoEffect, whyLoginTiming, ""},
	"sasl.login.retry.backoff.ms":                         {kgoNoEffect, whyLoginTiming, ""},
	"sasl.oauthbearer.scope.claim.name":                   {kgoNoEffect, whyBrokerSide, ""},
	"sasl.oauthbearer.sub.claim.name":                     {kgoNoEffect, whyBrokerSide, ""},
	"sasl.oauthbearer.jwks.endpoint.url":                  {kgoNoEffect, whyBrokerSide, ""},
	"sasl.oauthbearer.jwks.endpoint.refresh.ms":           {kgoNoEffect, whyBrokerSide, ""},
	"sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms": {kgoNoEffect, whyBrokerSide, ""},
	"sasl.oauthbearer.jwks.endpoint.retry.backoff.ms":     {kgoNoEffect, whyBrokerSide, ""},
	"sasl.oauthbearer.clock.skew.seconds":                 {kgoNoEffect, whyBrokerSide, ""},
	"sasl.oauthbearer.expected.audience":                  {kgoNoEffect, whyBrokerSide, ""},
	"sasl.oauthbearer.expected.issuer":                    {kgoNoEffect, whyBrokerSide, ""},
	// KIP-1139's jwt-bearer grant: a client assertion signed with a private key.
	"sasl.oauthbearer.assertion.algorithm":              {kgoError, "the jwt-bearer grant is not available; use the client_credentials grant (sasl.oauthbearer.client.credentials.client.id and .secret)", ""},
	"sasl.oauthbearer.assertion.claim.aud":              {kgoError, "the jwt-bearer grant is not available; use the client_credentials grant", ""},
	"sasl.oauthbearer.assertion.claim.exp.seconds":      {kgoError, "the jwt-bearer grant is not available; use the client_credentials grant", ""},
	"sasl.oauthbearer.assertion.claim.iss":              {kgoError, "the jwt-bearer grant is not available; use the client_credentials grant", ""},
	"sasl.oauthbearer.assertion.claim.jti.include":      {kgoError, "the jwt-bearer grant is not available; use the client_credentials grant", "false"},
	"sasl.oauthbearer.assertion.claim.nbf.seconds":      {kgoError, "the jwt-bearer grant is not available; use the client_credentials grant", ""},
	"sasl.oauthbearer.assertion.claim.sub":              {kgoError, "the jwt-bearer grant is not available; use the client_credentials grant", ""},
	"sasl.oauthbearer.assertion.file":                   {kgoError, "the jwt-bearer grant is not available; use the client_credentials grant", ""},
	"sasl.oauthbearer.assertion.private.key.file":       {kgoError, "the jwt-bearer grant is not available; use the client_credentials grant", ""},
	"sasl.oauthbearer.assertion.private.key.passphrase": {kgoError, "the jwt-bearer grant is not available; use the client_credentials grant", ""},
	"sasl.oauthbearer.assertion.template.file":          {kgoError, "the jwt-bearer grant is not available; use the client_credentials grant", ""},
	"group.remote.assignor":                             {kgoNoEffect, "Kafka Streams' consumers use the classic group protocol, where it does not apply", ""},
	"partition.assignment.strategy":                     {kgoWarn, "Kafka Streams always uses its own assignor", ""},
	"auto.commit.interval.ms":                           {kgoNoEffect, "offsets are committed by the stream threads, never automatically", ""},
	"key.deserializer":                                  {kgoWarn, "Kafka Streams clients always handle bytes; set default.key.serde or give serdes to the topology", ""},
	"value.deserializer":                                {kgoWarn, "Kafka Streams clients always handle bytes; set default.value.serde or give serdes to the topology", ""},
	"key.serializer":                                    {kgoWarn, "Kafka Streams clients always handle bytes; set default.key.serde or give serdes to the topology", ""},
	"value.serializer":                                  {kgoWarn, "Kafka Streams clients always handle bytes; set default.value.serde or give serdes to the topology", ""},
	"default.api.timeout.ms":                            {kgoNoEffect, "StoatFlow bounds each call with its own deadline", ""},
	"exclude.internal.topics":                           {kgoNoEffect, "StoatFlow subscribes to named topics only, never by pattern to internal ones", ""},
	"share.acknowledgement.mode":                        {kgoNoEffect, "Kafka Streams uses no share consumers", ""},
	"max.block.ms":                                      {kgoNoEffect, "StoatFlow bounds blocking produce and transaction calls with its own deadlines", ""},
	"metadata.max.idle.ms":                              {kgoNoEffect, "franz-go keeps metadata of the topics it produces to for the client's life", ""},
	"partitioner.class":                                 {kgoWarn, "StoatFlow partitions keyed records with murmur2 exactly as Kafka Streams' default", ""},
	"partitioner.ignore.keys":                           {kgoWarn, "StoatFlow partitions keyed records with murmur2 exactly as Kafka Streams' default", "false"},
	"partitioner.adaptive.partitioning.enable":          {kgoWarn, "StoatFlow partitions keyed records with murmur2 exactly as Kafka Streams' default", "true"},
	"partitioner.availability.timeout.ms":               {kgoWarn, "StoatFlow partitions keyed records with murmur2 exactly as Kafka Streams' default", "0"},
}

// kgoRuleFor returns the outcome of key on a client of the kind; ok is false
// for a key with none (a bug, caught by the tests).
func kgoRuleFor(kind ClientKind, key string) (kgoRule, bool) {
	switch {
	case key == "client.rack" && kind == Producer:
		return kgoRule{kgoNoEffect, "StoatFlow chooses every record's partition itself, so rack-aware partitioning does not apply", ""}, true
	case key == "retries" && kind.isConsumer():
		return kgoRule{}, false
	case kgoSecurityKeys[key] || kgoMappedKeys[key]:
		return kgoRule{outcome: kgoMapped}, true
	}
	r, ok := kgoRules[key]
	return r, ok
}
