package compat

import (
	"fmt"
	"maps"
	"sort"
	"strconv"
	"strings"
)

// clientSetting is one Java-level client setting and the .properties key it
// came from ("" for Kafka Streams' own defaults).
type clientSetting struct {
	value string
	from  string
}

var consumerDefaultOverrides = map[string]string{
	"max.poll.records": "1000", "auto.offset.reset": "earliest", "enable.auto.commit": "false",
	"group.protocol": "classic", "allow.auto.create.topics": "false",
}

// Kafka Streams 4.4's warnings for client settings it overrides.
const (
	unexpectedDefault = "Unexpected user-specified %s config '%s' found. User setting (%s) will be ignored and the Streams default setting (%s) will be used."
	unexpectedEOS     = "Unexpected user-specified %s config '%s' found. 'processing.guarantee' is set to \"exactly_once_v2\". Hence, user setting (%s) will be ignored and the Streams default setting (%s) will be used."
)

// nonConfigurableConsumer are the consumer settings Kafka Streams does not let
// users change: a different user value is dropped with a warning.
var nonConfigurableConsumer = map[string]string{"enable.auto.commit": "false", "allow.auto.create.topics": "false"}

// javaClientConfig assembles a client's Java-level settings as Kafka Streams
// 4.4 does: its defaults, then bare client keys, then the prefixed keys
// (main.consumer.X > consumer.X > X for the consumers).
func (l *loader) javaClientConfig(kind ClientKind, eos bool) map[string]clientSetting {
	out := map[string]clientSetting{}
	user := map[string]clientSetting{}
	for _, key := range l.p.Keys() {
		if isClientName(kind, key) {
			user[key] = clientSetting{l.p.Value(key), key}
		}
	}
	var prefixes []string
	switch kind {
	case MainConsumer:
		prefixes = []string{ConsumerPrefix, MainConsumerPrefix}
	case RestoreConsumer:
		prefixes = []string{ConsumerPrefix, RestoreConsumerPrefix}
	case GlobalConsumer:
		prefixes = []string{ConsumerPrefix, GlobalConsumerPrefix}
	case Producer:
		prefixes = []string{ProducerPrefix}
	case Admin:
		prefixes = []string{AdminPrefix}
	}
	for i, prefix := range prefixes {
		for k, e := range l.p.WithPrefix(prefix) {
			if i > 0 && kind.isConsumer() {
				// main./restore./global. maps are checked only against the
				// non-configurable defaults, after the common consumer checks.
				if want, ok := nonConfigurableConsumer[k]; ok && e.Value != want {
					l.warnf(prefix+k, "remove it", unexpectedDefault, "consumer", k, e.Value, want)
					continue
				}
				// Kafka Streams 4.4 lets main./restore./global.consumer.isolation.level
				// through under exactly_once_v2, and such a consumer reads aborted
				// records. StoatFlow does not.
				if k == "isolation.level" && eos && e.Value != "read_committed" {
					l.warnf(prefix+k, "remove it", unexpectedEOS+" (Kafka Streams itself would use the user setting for this consumer and read aborted records.)",
						"consumer", prefix+k, e.Value, "read_committed")
					continue
				}
			}
			user[k] = clientSetting{e.Value, prefix + k}
		}
		if i == 0 && kind.isConsumer() {
			l.checkConsumer(user, eos)
		}
	}
	switch {
	case kind.isConsumer():
		maps.Copy(out, toSettings(consumerDefaultOverrides))
		if eos {
			out["isolation.level"] = clientSetting{"read_committed", ""}
		}
		delete(user, "group.protocol") // Kafka Streams forces the consumer's protocol
	case kind == Producer:
		out["linger.ms"] = clientSetting{"100", ""}
		if eos {
			out["delivery.timeout.ms"] = clientSetting{"2147483647", ""}
			out["enable.idempotence"] = clientSetting{"true", ""}
			out["transaction.timeout.ms"] = clientSetting{"10000", ""}
		}
		l.checkProducer(user, eos)
	case kind == Admin:
		out["enable.metrics.push"] = clientSetting{"true", ""}
	}
	for k, s := range user {
		if s.from == "" {
			continue
		}
		nv, hint, err := normalizeClientValue(k, s.value)
		if err != nil {
			l.add(SeverityError, s.from, err.Error(), hint)
			delete(user, k)
			continue
		}
		user[k] = clientSetting{nv, s.from}
	}
	maps.Copy(out, user)
	if kind == Producer {
		l.checkIdempotence(out)
	}
	out["bootstrap.servers"] = clientSetting{strings.Join(l.values[BootstrapServersConfig].List, ","), BootstrapServersConfig}
	delete(out, "client.id")
	if kind == RestoreConsumer || kind == GlobalConsumer {
		delete(out, "group.id")
		delete(out, "group.instance.id")
		out["auto.offset.reset"] = clientSetting{"none", ""}
	}
	if kind == MainConsumer {
		if s, ok := out["group.id"]; ok && s.from != "" {
			l.warnf(s.from, "remove it; application.id is the group id", "group.id %s is ignored: Kafka Streams uses application.id as the consumer group id", s.value)
		}
		delete(out, "group.id")
	}
	return out
}

func toSettings(m map[string]string) map[string]clientSetting {
	out := map[string]clientSetting{}
	for k, v := range m {
		out[k] = clientSetting{v, ""}
	}
	return out
}

func (l *loader) checkConsumer(user map[string]clientSetting, eos bool) {
	for _, k := range []string{"enable.auto.commit", "allow.auto.create.topics"} {
		if s, ok := user[k]; ok && s.value != nonConfigurableConsumer[k] {
			l.warnf(s.from, "remove it", unexpectedDefault, "consumer", k, s.value, nonConfigurableConsumer[k])
			delete(user, k)
		}
	}
	if s, ok := user["isolation.level"]; ok && eos && s.value != "read_committed" {
		l.warnf(s.from, "remove it", unexpectedEOS, "consumer", "isolation.level", s.value, "read_committed")
		delete(user, "isolation.level")
	}
}

func (l *loader) checkProducer(user map[string]clientSetting, eos bool) {
	if s, ok := user["transactional.id"]; ok {
		if eos {
			l.warnf(s.from, "remove it", unexpectedEOS, "producer", "transactional.id", s.value, "<appId>-<generatedSuffix>")
		} else {
			l.warnf(s.from, "remove it, or set processing.guarantee=exactly_once_v2", "transactional.id %s is ignored: under at_least_once StoatFlow's producers are not transactional", s.value)
		}
		delete(user, "transactional.id")
	}
	if !eos {
		return
	}
	if s, ok := user["enable.idempotence"]; ok && s.value != "true" {
		l.warnf(s.from, "remove it", unexpectedEOS, "producer", "enable.idempotence", s.value, "true")
		delete(user, "enable.idempotence")
	}
	if s, ok := user["max.in.flight.requests.per.connection"]; ok {
		n, err := strconv.ParseInt(javaTrim(s.value), 10, 32)
		switch {
		case err != nil:
			l.add(SeverityError, s.from, invalid("max.in.flight.requests.per.connection", s.value, "String value could not be parsed as 32-bit integer"), "write a whole number from 1 to 5")
			delete(user, "max.in.flight.requests.per.connection")
		case n > 5:
			l.add(SeverityError, s.from, invalid("max.in.flight.requests.per.connection", strconv.FormatInt(n, 10), "Can't exceed 5 when exactly-once processing is enabled"), "set it to 5 or less, or remove it")
			delete(user, "max.in.flight.requests.per.connection")
		}
	}
}

// checkIdempotence applies the Java producer's idempotence rules to its
// assembled settings (ProducerConfig's post-processing in Kafka 4.4):
// idempotence is on by default, and so on for Kafka Streams' at_least_once
// producers too. A producer that asks for it (exactly_once_v2 always does)
// must keep acks=all and retries > 0; otherwise such settings turn it off.
// Whenever it is on, max.in.flight.requests.per.connection must be at most
// 5. librdkafka, off by default, gets enable.idempotence=true wherever the
// Java producer would be idempotent.
func (l *loader) checkIdempotence(java map[string]clientSetting) {
	asked, explicit := java["enable.idempotence"]
	if explicit && asked.value != "true" {
		return
	}
	fail := func(key, msg, hint string) {
		from := java[key].from
		if from == "" {
			from = asked.from
		}
		if from == "" {
			from = ProcessingGuaranteeConfig
		}
		l.add(SeverityError, from, msg, hint)
		delete(java, key)
	}
	on := true
	if s, ok := java["retries"]; ok && s.value == "0" {
		if explicit {
			fail("retries", "Must set retries to non-zero when using the idempotent producer.", "remove retries=0")
			return
		}
		on = false
	}
	if s, ok := java["acks"]; ok && s.value != "all" && s.value != "-1" {
		if explicit {
			fail("acks", "Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence.", "remove acks or set acks=all")
			return
		}
		on = false
	}
	if s, ok := java["max.in.flight.requests.per.connection"]; ok {
		if n, _ := strconv.Atoi(s.value); n > 5 {
			fail("max.in.flight.requests.per.connection", fmt.Sprintf("To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is %d.", n),
				"set it to 5 or less, or set enable.idempotence=false")
			return
		}
	}
	if on && !explicit {
		java["enable.idempotence"] = clientSetting{"true", ""}
	}
}

// silentJavaOnly are Java client keys with no librdkafka meaning, dropped
// without a word: they tune the JVM client only.
var silentJavaOnly = set(`max.poll.records metric.reporters metrics.num.samples metrics.sample.window.ms metrics.recording.level
auto.include.jmx.reporter internal.throw.on.fetch.stable.offset.unsupported internal.leave.group.on.close
default.api.timeout.ms max.block.ms metadata.max.idle.ms socket.connection.setup.timeout.max.ms exclude.internal.topics
sasl.kerberos.ticket.renew.window.factor sasl.kerberos.ticket.renew.jitter sasl.login.refresh.window.factor
sasl.login.refresh.window.jitter sasl.login.refresh.min.period.seconds sasl.login.refresh.buffer.seconds
sasl.login.connect.timeout.ms sasl.login.read.timeout.ms sasl.login.retry.backoff.max.ms sasl.login.retry.backoff.ms
sasl.oauthbearer.scope.claim.name sasl.oauthbearer.sub.claim.name sasl.oauthbearer.jwks.endpoint.url
sasl.oauthbearer.jwks.endpoint.refresh.ms sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms
sasl.oauthbearer.jwks.endpoint.retry.backoff.ms sasl.oauthbearer.clock.skew.seconds sasl.oauthbearer.expected.audience
sasl.oauthbearer.expected.issuer sasl.oauthbearer.header.urlencode ssl.truststore.password share.acknowledgement.mode
config.providers`)

// javaClassKeys name Java classes that take part in authentication or TLS:
// without them the connection cannot be made as configured.
var javaClassKeys = set(`ssl.engine.factory.class sasl.login.class sasl.login.callback.handler.class
sasl.client.callback.handler.class sasl.oauthbearer.jwt.retriever.class sasl.oauthbearer.jwt.validator.class security.providers`)

// tlsJVMOnly are TLS settings of the JVM's TLS stack; librdkafka uses OpenSSL's
// defaults, which negotiate the same protocols.
var tlsJVMOnly = set(`ssl.protocol ssl.enabled.protocols ssl.keymanager.algorithm ssl.trustmanager.algorithm ssl.provider ssl.secure.random.implementation`)

// translate maps a client's Java-level settings onto librdkafka properties.
func (l *loader) translate(kind ClientKind, java map[string]clientSetting) map[string]string {
	out := map[string]string{}
	keys := make([]string, 0, len(java))
	for k := range java {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	warnFrom := func(s clientSetting, hint, format string, args ...any) {
		if s.from != "" {
			l.warnf(s.from, hint, format, args...)
		}
	}
	for _, k := range keys {
		s := java[k]
		v := javaTrim(s.value)
		switch {
		case strings.HasPrefix(k, "ssl.keystore.") || strings.HasPrefix(k, "ssl.truststore.") || k == "ssl.key.password" || k == "sasl.jaas.config":
			// Handled below, as groups.
		case silentJavaOnly[k]:
		case javaClassKeys[k]:
			if s.from != "" {
				l.errorf(s.from, "remove it and use settings librdkafka understands (see docs/config.md)",
					"%s = %s names a Java class with no Go equivalent; the clients cannot connect as configured", s.from, v)
			}
		case tlsJVMOnly[k]:
			warnFrom(s, "remove it; librdkafka negotiates TLS 1.2/1.3 through OpenSSL", "%s is a JVM TLS setting with no librdkafka equivalent; ignored", s.from)
		case k == "security.protocol":
			out[k] = strings.ToLower(v)
		case k == "acks":
			if v == "all" {
				v = "-1"
			}
			if kind == Producer {
				out[k] = v
			}
		case k == "auto.offset.reset":
			switch strings.ToLower(v) {
			case "earliest", "latest":
				out[k] = strings.ToLower(v)
			case "none":
				out[k] = "error"
			default:
				l.errorf(s.from, "use earliest, latest or none", "auto.offset.reset = %s has no librdkafka equivalent", v)
			}
		case k == "fetch.max.wait.ms":
			out["fetch.wait.max.ms"] = v
		case k == "max.request.size":
			out["message.max.bytes"] = v
		case k == "buffer.memory":
			if n, err := strconv.ParseInt(v, 10, 64); err == nil {
				out["queue.buffering.max.kbytes"] = strconv.FormatInt((n+1023)/1024, 10)
			}
		case k == "receive.buffer.bytes" || k == "send.buffer.bytes":
			if v == "-1" {
				v = "0" // the OS default in both clients
			}
			out["socket."+k] = v
		case k == "request.timeout.ms":
			if kind == Producer {
				out[k] = v
			} else {
				out["socket.timeout.ms"] = v
			}
		case k == "ssl.endpoint.identification.algorithm":
			if v == "" {
				v = "none"
			}
			out[k] = strings.ToLower(v)
		case k == "ssl.cipher.suites":
			if strings.Contains(v, "TLS_") {
				warnFrom(s, "write the OpenSSL cipher names, e.g. ECDHE-RSA-AES128-GCM-SHA256", "ssl.cipher.suites lists Java (IANA) cipher names, which OpenSSL does not read; ignored")
			} else {
				out[k] = v
			}
		case k == "partition.assignment.strategy":
			warnFrom(s, "remove it", "partition.assignment.strategy is ignored: Kafka Streams always uses its own assignor")
		case k == "key.deserializer" || k == "value.deserializer" || k == "key.serializer" || k == "value.serializer":
			warnFrom(s, "remove it; set default.key.serde / default.value.serde or give serdes to the topology",
				"%s is ignored: Kafka Streams clients always handle bytes", s.from)
		case k == "interceptor.classes":
			if v != "" {
				warnFrom(s, "remove it; StoatFlow exposes metrics on /metrics", "interceptor.classes names Java classes with no Go equivalent; ignored")
			}
		case k == "partitioner.class" || k == "partitioner.ignore.keys" || k == "partitioner.adaptive.partitioning.enable" || k == "partitioner.availability.timeout.ms":
			warnFrom(s, "remove it", "%s is ignored: StoatFlow partitions keyed records with murmur2 exactly as Kafka Streams' default", s.from)
		case k == "compression.gzip.level" || k == "compression.lz4.level" || k == "compression.zstd.level":
			codec := strings.TrimSuffix(strings.TrimPrefix(k, "compression."), ".level")
			if javaTrim(java["compression.type"].value) == codec {
				out["compression.level"] = v
			}
		case k == "client.dns.lookup":
			if v == "use_all_dns_ips" || v == "resolve_canonical_bootstrap_servers_only" {
				out[k] = v
			}
		case k == "delivery.timeout.ms" && kind == Producer && l.values[ProcessingGuaranteeConfig].Str == "exactly_once_v2":
			// librdkafka refuses a transactional producer whose message timeout
			// exceeds transaction.timeout.ms, and lowers it to that itself when
			// unset: leave Kafka Streams' "infinite" default to it.
			if s.from != "" {
				if n, err := strconv.ParseInt(v, 10, 64); err == nil {
					tx, _ := strconv.ParseInt(javaTrim(java["transaction.timeout.ms"].value), 10, 64)
					if n <= tx {
						out[k] = v
					} else {
						l.warnf(s.from, "set it no higher than transaction.timeout.ms",
							"delivery.timeout.ms %d exceeds transaction.timeout.ms %d; librdkafka bounds it by the transaction timeout", n, tx)
					}
				}
			}
		case k == "retries" && kind == Admin:
		case k == "max.in.flight.requests.per.connection" && kind != Producer:
		case RdkafkaKnows(kind, k):
			out[k] = v
		default:
			warnFrom(s, "remove it, or see docs/config.md for what librdkafka needs", "%s has no librdkafka equivalent; ignored", s.from)
		}
	}
	l.translateJAAS(kind, java, out)
	l.translateStores(kind, java, out)
	return out
}

// translateJAAS maps sasl.jaas.config onto librdkafka's SASL settings.
func (l *loader) translateJAAS(kind ClientKind, java map[string]clientSetting, out map[string]string) {
	s, ok := java["sasl.jaas.config"]
	if !ok || javaTrim(s.value) == "" {
		return
	}
	j, err := parseJAAS(s.value)
	if err != nil {
		l.errorf(s.from, `write it as <LoginModule> required key="value" ...;`, "sasl.jaas.config cannot be read: %v", err)
		return
	}
	switch j.module {
	case "org.apache.kafka.common.security.plain.PlainLoginModule", "org.apache.kafka.common.security.scram.ScramLoginModule":
		if j.opts["username"] == "" {
			l.errorf(s.from, `add username="..." to the JAAS options`, "sasl.jaas.config has no username for %s", shortClass(j.module))
		}
		out["sasl.username"] = j.opts["username"]
		out["sasl.password"] = j.opts["password"]
	case "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule":
		switch {
		case j.opts["clientId"] != "":
			out["sasl.oauthbearer.method"] = "oidc"
			out["sasl.oauthbearer.client.id"] = j.opts["clientId"]
			out["sasl.oauthbearer.client.secret"] = j.opts["clientSecret"]
			if sc := j.opts["scope"]; sc != "" {
				out["sasl.oauthbearer.scope"] = sc
			}
		case j.opts["unsecuredLoginStringClaim_sub"] != "":
			out["enable.sasl.oauthbearer.unsecure.jwt"] = "true"
			out["sasl.oauthbearer.config"] = "principal=" + j.opts["unsecuredLoginStringClaim_sub"]
		case java["sasl.oauthbearer.client.credentials.client.id"].value != "":
			out["sasl.oauthbearer.method"] = "oidc"
		default:
			l.errorf(s.from, "give clientId and clientSecret JAAS options with sasl.oauthbearer.token.endpoint.url (librdkafka's OIDC client-credentials flow)",
				"sasl.jaas.config uses OAuthBearerLoginModule without client credentials, which librdkafka cannot log in with")
		}
	case "com.sun.security.auth.module.Krb5LoginModule":
		if kt := j.opts["keyTab"]; kt != "" {
			out["sasl.kerberos.keytab"] = kt
		}
		if pr := j.opts["principal"]; pr != "" {
			out["sasl.kerberos.principal"] = pr
		}
	default:
		l.errorf(s.from, "use PlainLoginModule, ScramLoginModule, OAuthBearerLoginModule or Krb5LoginModule",
			"sasl.jaas.config login module %s has no librdkafka equivalent", j.module)
	}
}

// translateStores maps Java key and trust stores onto librdkafka's TLS files.
func (l *loader) translateStores(kind ClientKind, java map[string]clientSetting, out map[string]string) {
	get := func(k string) (clientSetting, bool) {
		s, ok := java[k]
		return s, ok && javaTrim(s.value) != ""
	}
	storeType := func(typeKey, loc string) string {
		if s, ok := get(typeKey); ok {
			return strings.ToUpper(javaTrim(s.value))
		}
		lower := strings.ToLower(loc)
		switch {
		case strings.HasSuffix(lower, ".p12") || strings.HasSuffix(lower, ".pfx"):
			return "PKCS12"
		case strings.HasSuffix(lower, ".pem") || strings.HasSuffix(lower, ".crt"):
			return "PEM"
		}
		return "JKS"
	}
	if s, ok := get("ssl.truststore.certificates"); ok {
		out["ssl.ca.pem"] = javaTrim(s.value)
	}
	if s, ok := get("ssl.truststore.location"); ok {
		loc := javaTrim(s.value)
		switch t := storeType("ssl.truststore.type", loc); t {
		case "PEM":
			out["ssl.ca.location"] = loc
		case "PKCS12":
			l.errorf(s.from, fmt.Sprintf("convert it: openssl pkcs12 -in %s -nokeys -out ca.pem, then set ssl.truststore.location=ca.pem and ssl.truststore.type=PEM", loc),
				"librdkafka cannot read a PKCS12 trust store (%s); it needs the CA certificates as PEM", loc)
		default:
			l.errorf(s.from, fmt.Sprintf("convert it: keytool -exportcert -rfc -keystore %s -alias <alias> -file ca.pem, then set ssl.truststore.location=ca.pem and ssl.truststore.type=PEM", loc),
				"librdkafka cannot read a %s trust store (%s); it needs the CA certificates as PEM", t, loc)
		}
	}
	if s, ok := get("ssl.keystore.key"); ok {
		out["ssl.key.pem"] = javaTrim(s.value)
		if c, ok := get("ssl.keystore.certificate.chain"); ok {
			out["ssl.certificate.pem"] = javaTrim(c.value)
		}
	}
	if s, ok := get("ssl.key.password"); ok {
		out["ssl.key.password"] = javaTrim(s.value)
	}
	if s, ok := get("ssl.keystore.location"); ok {
		loc := javaTrim(s.value)
		switch t := storeType("ssl.keystore.type", loc); t {
		case "PEM":
			out["ssl.certificate.location"] = loc
			out["ssl.key.location"] = loc
		case "PKCS12":
			out["ssl.keystore.location"] = loc
			if p, ok := get("ssl.keystore.password"); ok {
				out["ssl.keystore.password"] = javaTrim(p.value)
			}
		default:
			l.errorf(s.from, fmt.Sprintf("convert it: keytool -importkeystore -srckeystore %s -destkeystore keystore.p12 -deststoretype PKCS12, then set ssl.keystore.location=keystore.p12 and ssl.keystore.type=PKCS12", loc),
				"librdkafka cannot read a %s key store (%s); it reads PKCS12 or PEM", t, loc)
		}
	}
}

type jaas struct {
	module, flag string
	opts         map[string]string
}

// parseJAAS reads one JAAS login-module entry: Module flag key=value ... ;
func parseJAAS(s string) (jaas, error) {
	toks, err := jaasTokens(s)
	if err != nil {
		return jaas{}, err
	}
	if len(toks) < 2 {
		return jaas{}, fmt.Errorf("expected a login module and a control flag")
	}
	j := jaas{module: toks[0], flag: toks[1], opts: map[string]string{}}
	switch j.flag {
	case "required", "requisite", "sufficient", "optional":
	default:
		return jaas{}, fmt.Errorf("control flag must be required, requisite, sufficient or optional")
	}
	rest := toks[2:]
	for len(rest) > 0 && rest[0] != ";" {
		if len(rest) < 3 || rest[1] != "=" {
			return jaas{}, fmt.Errorf("expected key=value options")
		}
		j.opts[rest[0]] = rest[2]
		rest = rest[3:]
	}
	if len(rest) == 0 {
		return jaas{}, fmt.Errorf("missing ';' after the login module options")
	}
	if len(rest) > 1 {
		return jaas{}, fmt.Errorf("only one login module is supported")
	}
	return j, nil
}

func jaasTokens(s string) ([]string, error) {
	var toks []string
	r := []rune(s)
	for i := 0; i < len(r); {
		c := r[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '=' || c == ';':
			toks = append(toks, string(c))
			i++
		case c == '"' || c == '\'':
			q := c
			i++
			var b strings.Builder
			closed := false
			for i < len(r) {
				if r[i] == '\\' && i+1 < len(r) {
					b.WriteRune(r[i+1])
					i += 2
					continue
				}
				if r[i] == q {
					closed = true
					i++
					break
				}
				b.WriteRune(r[i])
				i++
			}
			if !closed {
				return nil, fmt.Errorf("unterminated quoted value")
			}
			toks = append(toks, b.String())
		default:
			j := i
			for j < len(r) && !strings.ContainsRune(" \t\n\r=;\"'", r[j]) {
				j++
			}
			toks = append(toks, string(r[i:j]))
			i = j
		}
	}
	return toks, nil
}

// clients builds every client's librdkafka settings once; the per-thread
// methods add ids.
func (l *loader) clients(c *Config) {
	eos := l.values[ProcessingGuaranteeConfig].Str == "exactly_once_v2"
	c.clients = map[ClientKind]map[string]string{}
	c.kgo = map[ClientKind][]ClientOption{}
	c.MaxPollRecords = 1000
	for _, kind := range []ClientKind{MainConsumer, RestoreConsumer, GlobalConsumer, Producer, Admin} {
		java := l.javaClientConfig(kind, eos)
		if kind == MainConsumer {
			if n, err := strconv.Atoi(javaTrim(java["max.poll.records"].value)); err == nil && n > 0 {
				c.MaxPollRecords = n
			} else {
				l.errorf(java["max.poll.records"].from, "write a whole number of at least 1", "%s",
					invalid("max.poll.records", java["max.poll.records"].value, "Value must be at least 1"))
			}
		}
		if kind == MainConsumer {
			c.groupInstance = java["group.instance.id"]
		}
		c.kgo[kind] = l.mapKgo(kind, java, eos)
		// The librdkafka settings are kept for the runtime that still uses
		// them; their findings are not reported, the franz-go mapping's are.
		n := len(l.diags)
		c.clients[kind] = l.translate(kind, java)
		l.diags = l.diags[:n]
	}
	l.dedupe()
}

// dedupe drops repeated findings (a bare key reaches several clients).
func (l *loader) dedupe() {
	seen := map[string]bool{}
	out := l.diags[:0]
	for _, d := range l.diags {
		id := d.Key + "\x00" + d.Message
		if seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, d)
	}
	l.diags = out
}

func (c *Config) client(kind ClientKind) map[string]string {
	out := maps.Clone(c.clients[kind])
	if out == nil {
		out = map[string]string{}
	}
	return out
}

// ThreadClientID returns <clientId>-StreamThread-<threadIdx>, the prefix of a
// stream thread's client ids. Thread indexes start at 1, as in Kafka Streams.
func (c *Config) ThreadClientID(processID string, threadIdx int) string {
	return fmt.Sprintf("%s-StreamThread-%d", c.EffectiveClientID(processID), threadIdx)
}

// TransactionalID returns <application.id>-<processID>-<threadIdx>, the
// transactional.id of a stream thread's producer under exactly_once_v2.
func (c *Config) TransactionalID(processID string, threadIdx int) string {
	return fmt.Sprintf("%s-%s-%d", c.ApplicationID, processID, threadIdx)
}

// MainConsumerConfig returns the librdkafka settings (a kafka.ConfigMap's
// contents) of stream thread threadIdx's main consumer: group.id is
// application.id, client.id is <clientId>-StreamThread-<n>-consumer, a user
// group.instance.id gets "-<n>" appended (without one, and with
// StaticMembership, it is <processID>-<n>), and the partition assignment is
// librdkafka's co-partitioning range assignor.
func (c *Config) MainConsumerConfig(processID string, threadIdx int) map[string]string {
	m := c.client(MainConsumer)
	m["group.id"] = c.ApplicationID
	m["client.id"] = c.ThreadClientID(processID, threadIdx) + "-consumer"
	if gi, ok := m["group.instance.id"]; ok && gi != "" {
		m["group.instance.id"] = gi + "-" + strconv.Itoa(threadIdx)
	} else if c.StaticMembership {
		m["group.instance.id"] = processID + "-" + strconv.Itoa(threadIdx)
	}
	m["partition.assignment.strategy"] = "range"
	return m
}

// restoreFetchWaitMaxMs is the restore consumer's fetch.wait.max.ms unless the
// user sets fetch.max.wait.ms for it.
const restoreFetchWaitMaxMs = "50"

// RestoreConsumerConfig returns the librdkafka settings of stream thread
// threadIdx's restore consumer, exactly as the thread creates it: client.id
// <clientId>-StreamThread-<n>-restore-consumer; auto.offset.reset=error, which
// is Java's none; group.id <application.id>-restore, which librdkafka requires
// of every consumer although this one only assigns partitions, never joins the
// group and commits nothing; enable.partition.eof=true, the event that ends a
// restore; and fetch.wait.max.ms=50 (restoreFetchWaitMaxMs) unless the user set
// fetch.max.wait.ms for it, because the end of a changelog is only seen once a
// fetch comes back empty and the broker holds an empty fetch that long.
func (c *Config) RestoreConsumerConfig(processID string, threadIdx int) map[string]string {
	m := c.client(RestoreConsumer)
	m["client.id"] = c.ThreadClientID(processID, threadIdx) + "-restore-consumer"
	m["group.id"] = c.ApplicationID + "-restore"
	m["enable.partition.eof"] = "true"
	if _, ok := m["fetch.wait.max.ms"]; !ok {
		m["fetch.wait.max.ms"] = restoreFetchWaitMaxMs
	}
	return m
}

// GlobalConsumerConfig returns the librdkafka settings of the global thread's
// consumer (client.id <clientId>-GlobalStreamThread-global-consumer).
func (c *Config) GlobalConsumerConfig(processID string) map[string]string {
	m := c.client(GlobalConsumer)
	m["client.id"] = c.EffectiveClientID(processID) + "-GlobalStreamThread-global-consumer"
	return m
}

// ProducerConfig returns the librdkafka settings of stream thread threadIdx's
// producer: client.id <clientId>-StreamThread-<n>-producer, under
// exactly_once_v2 transactional.id <application.id>-<processID>-<n>, and the
// murmur2 partitioner Kafka's Java producer uses.
func (c *Config) ProducerConfig(processID string, threadIdx int) map[string]string {
	m := c.client(Producer)
	m["client.id"] = c.ThreadClientID(processID, threadIdx) + "-producer"
	m["partitioner"] = "murmur2_random"
	if c.ExactlyOnce() {
		m["transactional.id"] = c.TransactionalID(processID, threadIdx)
	}
	return m
}

// AdminConfig returns the librdkafka settings of the admin client (client.id <clientId>-admin).
func (c *Config) AdminConfig(processID string) map[string]string {
	m := c.client(Admin)
	m["client.id"] = c.EffectiveClientID(processID) + "-admin"
	return m
}
