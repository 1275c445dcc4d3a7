package compat

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// clientTypes are the ConfigDef types of the Java client keys (ProducerConfig,
// ConsumerConfig and AdminClientConfig of Kafka 4.4; a key has one type in
// all three), so a bad client value is reported with its position at
// start-up, in the words the Java client would use, instead of failing later
// inside the Kafka client. STRING keys are left out: their values pass as written,
// trimmed as Java trims them.
var clientTypes = func() map[string]Type {
	m := map[string]Type{}
	add := func(t Type, names string) {
		for _, n := range strings.Fields(names) {
			m[n] = t
		}
	}
	add(TypeInt, `auto.commit.interval.ms batch.size compression.gzip.level compression.lz4.level compression.zstd.level
default.api.timeout.ms delivery.timeout.ms fetch.max.bytes fetch.max.wait.ms fetch.min.bytes heartbeat.interval.ms
max.in.flight.requests.per.connection max.partition.fetch.bytes max.poll.interval.ms max.poll.records max.request.size
metrics.num.samples receive.buffer.bytes request.timeout.ms retries sasl.login.connect.timeout.ms sasl.login.read.timeout.ms
sasl.oauthbearer.assertion.claim.exp.seconds sasl.oauthbearer.assertion.claim.nbf.seconds sasl.oauthbearer.clock.skew.seconds
send.buffer.bytes session.timeout.ms transaction.timeout.ms`)
	add(TypeLong, `bootstrap.resolve.timeout.ms buffer.memory connections.max.idle.ms linger.ms max.block.ms metadata.max.age.ms
metadata.max.idle.ms metadata.recovery.rebootstrap.trigger.ms metrics.sample.window.ms partitioner.availability.timeout.ms
reconnect.backoff.max.ms reconnect.backoff.ms retry.backoff.max.ms retry.backoff.ms sasl.kerberos.min.time.before.relogin
sasl.login.retry.backoff.max.ms sasl.login.retry.backoff.ms sasl.oauthbearer.jwks.endpoint.refresh.ms
sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms sasl.oauthbearer.jwks.endpoint.retry.backoff.ms
socket.connection.setup.timeout.max.ms socket.connection.setup.timeout.ms`)
	add(TypeShort, `sasl.login.refresh.buffer.seconds sasl.login.refresh.min.period.seconds`)
	add(TypeDouble, `sasl.kerberos.ticket.renew.jitter sasl.kerberos.ticket.renew.window.factor sasl.login.refresh.window.factor
sasl.login.refresh.window.jitter`)
	add(TypeBoolean, `allow.auto.create.topics check.crcs enable.auto.commit enable.idempotence enable.metrics.push
exclude.internal.topics internal.throw.on.fetch.stable.offset.unsupported metadata.cluster.check.enable
partitioner.adaptive.partitioning.enable partitioner.ignore.keys partitioner.rack.aware
sasl.oauthbearer.allow.unverified.audience sasl.oauthbearer.allow.unverified.issuer
sasl.oauthbearer.assertion.claim.jti.include sasl.oauthbearer.header.urlencode transaction.two.phase.commit.enable`)
	add(TypeList, `bootstrap.controllers bootstrap.servers config.providers interceptor.classes metric.reporters
partition.assignment.strategy sasl.oauthbearer.expected.audience ssl.cipher.suites ssl.enabled.protocols`)
	add(TypePassword, `sasl.jaas.config sasl.oauthbearer.assertion.private.key.passphrase
sasl.oauthbearer.client.credentials.client.secret ssl.key.password ssl.keystore.certificate.chain ssl.keystore.key
ssl.keystore.password ssl.truststore.certificates ssl.truststore.password`)
	add(TypeClass, `key.deserializer key.serializer partitioner.class sasl.client.callback.handler.class
sasl.login.callback.handler.class sasl.login.class sasl.oauthbearer.jwt.retriever.class
sasl.oauthbearer.jwt.validator.class ssl.engine.factory.class value.deserializer value.serializer`)
	return m
}()

// clientValidators are the ConfigDef validators of the Java client keys; a
// key has the same one in every client that knows it.
var clientValidators = func() map[string]Validator {
	m := map[string]Validator{
		"acks":                              ValidString{Values: []string{"all", "-1", "0", "1"}},
		"auto.offset.reset":                 autoOffsetResetValidator,
		"buffer.memory.allocation.strategy": CaseInsensitiveValidString{Values: []string{"FULL", "INCREMENTAL"}},
		"client.dns.lookup":                 ValidString{Values: []string{"use_all_dns_ips", "resolve_canonical_bootstrap_servers_only"}},
		"compression.gzip.level": FuncValidator{Desc: "[1,...,9] or -1", Fn: func(name string, v Value) string {
			if v.Int == -1 || v.Int >= 1 && v.Int <= 9 {
				return ""
			}
			return invalid(name, v.JavaString(), "Value must be between 1 and 9 or equal to -1")
		}},
		"compression.lz4.level":                        Between(1, 17),
		"compression.type":                             ValidString{Values: []string{"none", "gzip", "snappy", "lz4", "zstd"}},
		"compression.zstd.level":                       Between(-131072, 22),
		"group.instance.id":                            NonEmptyString{},
		"group.protocol":                               CaseInsensitiveValidString{Values: []string{"CONSUMER", "CLASSIC"}},
		"isolation.level":                              ValidString{Values: []string{"read_committed", "read_uncommitted"}},
		"max.in.flight.requests.per.connection":        AtLeast(1),
		"max.poll.interval.ms":                         AtLeast(1),
		"max.poll.records":                             AtLeast(1),
		"metadata.max.idle.ms":                         AtLeast(5000),
		"metadata.recovery.strategy":                   CaseInsensitiveValidString{Values: []string{"REBOOTSTRAP", "NONE"}},
		"metrics.num.samples":                          AtLeast(1),
		"metrics.recording.level":                      ValidString{Values: []string{"INFO", "DEBUG", "TRACE"}},
		"receive.buffer.bytes":                         AtLeast(-1),
		"retries":                                      Between(0, math.MaxInt32),
		"sasl.login.refresh.buffer.seconds":            Between(0, 3600),
		"sasl.login.refresh.min.period.seconds":        Between(0, 900),
		"sasl.login.refresh.window.factor":             FloatRange{Min: 0.5, Max: 1.0},
		"sasl.login.refresh.window.jitter":             FloatRange{Min: 0.0, Max: 0.25},
		"sasl.oauthbearer.assertion.algorithm":         CaseInsensitiveValidString{Values: []string{"ES256", "RS256"}},
		"sasl.oauthbearer.assertion.claim.exp.seconds": Between(0, 86400),
		"sasl.oauthbearer.assertion.claim.nbf.seconds": Between(0, 3600),
		"security.protocol":                            CaseInsensitiveValidString{Values: []string{"PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"}},
		"send.buffer.bytes":                            AtLeast(-1),
		"share.acknowledgement.mode":                   enumValidator("share.acknowledgement.mode", "The value must either be 'implicit' or 'explicit'.", "implicit", "explicit"),
		"share.acquire.mode":                           enumValidator("share.acquire.mode", "The value must either be 'batch_optimized' or 'record_limit'.", "batch_optimized", "record_limit"),
		"transactional.id":                             NonEmptyString{},
	}
	for _, n := range strings.Fields(`auto.commit.interval.ms batch.size bootstrap.resolve.timeout.ms buffer.memory
default.api.timeout.ms delivery.timeout.ms fetch.max.bytes fetch.max.wait.ms fetch.min.bytes linger.ms max.block.ms
max.partition.fetch.bytes max.request.size metadata.max.age.ms metadata.recovery.rebootstrap.trigger.ms
metrics.sample.window.ms partitioner.availability.timeout.ms reconnect.backoff.max.ms reconnect.backoff.ms
request.timeout.ms retry.backoff.max.ms retry.backoff.ms`) {
		m[n] = AtLeast(0)
	}
	return m
}()

// enumValidator is the validator of the clients' enum-backed keys, whose
// message repeats the value in back quotes and then says what is allowed.
func enumValidator(name, allowed string, values ...string) Validator {
	return FuncValidator{Desc: "[" + strings.Join(values, ", ") + "]", Fn: func(key string, v Value) string {
		for _, x := range values {
			if v.Str == x {
				return ""
			}
		}
		return invalid(key, v.Str, "Invalid value `"+v.Str+"` for configuration "+name+". "+allowed)
	}}
}

// autoOffsetResetValidator is AutoOffsetResetStrategy.Validator: latest,
// earliest, none, or by_duration:<ISO-8601 duration, not negative>.
var autoOffsetResetValidator = FuncValidator{Desc: "[latest, earliest, none, by_duration:PnDTnHnMn.nS]", Fn: func(name string, v Value) string {
	switch s := v.Str; {
	case s == "latest" || s == "earliest" || s == "none":
		return ""
	case strings.HasPrefix(s, "by_duration:"):
		if d, ok := parseJavaDuration(strings.TrimPrefix(s, "by_duration:")); ok && d.Sign() >= 0 {
			return ""
		}
	}
	return invalid(name, v.Str, "Invalid value `"+v.Str+"` for configuration "+name+
		". The value must be either 'earliest', 'latest', 'none' or of the format 'by_duration:<PnDTnHnMn.nS.>'.")
}}

var javaDurationPattern = regexp.MustCompile(`(?i)^([-+]?)P(?:([-+]?[0-9]+)D)?(T(?:([-+]?[0-9]+)H)?(?:([-+]?[0-9]+)M)?(?:([-+]?[0-9]+)(?:[.,]([0-9]{0,9}))?S)?)?$`)

// parseJavaDuration parses text as java.time.Duration.parse does and returns
// the duration in nanoseconds; ok is false where Java throws (no field, a
// bare "T", or seconds beyond a long).
func parseJavaDuration(text string) (nanos *big.Int, ok bool) {
	m := javaDurationPattern.FindStringSubmatch(text)
	if m == nil || m[3] == "T" || m[3] == "t" || m[2] == "" && m[4] == "" && m[5] == "" && m[6] == "" {
		return nil, false
	}
	total := new(big.Int)
	for _, f := range []struct {
		s    string
		unit int64
	}{{m[2], 86400}, {m[4], 3600}, {m[5], 60}, {m[6], 1}} {
		if f.s == "" {
			continue
		}
		n, err := strconv.ParseInt(f.s, 10, 64)
		if err != nil {
			return nil, false
		}
		total.Add(total, new(big.Int).Mul(big.NewInt(n), big.NewInt(f.unit)))
	}
	if !total.IsInt64() {
		return nil, false
	}
	total.Mul(total, big.NewInt(1e9))
	if frac := m[7]; frac != "" {
		n, _ := strconv.ParseInt((frac + "000000000")[:9], 10, 64)
		if strings.HasPrefix(m[6], "-") {
			n = -n
		}
		total.Add(total, big.NewInt(n))
	}
	if m[1] == "-" {
		total.Neg(total)
	}
	return total, true
}

// normalizeClientValue parses a Java client value as the Java client would and
// renders it for the franz-go mapping (trimmed, booleans lower-case, lists joined with
// commas). It returns Kafka's message, and a hint, when the Java client would
// refuse it.
func normalizeClientValue(name, raw string) (string, string, error) {
	t, ok := clientTypes[name]
	if !ok {
		t = TypeString
	}
	v, err := ParseValue(name, raw, t)
	if err != nil {
		return "", typeHint(&Key{Type: t}), err
	}
	if val := clientValidators[name]; val != nil {
		if msg := val.Validate(name, v); msg != "" {
			return "", clientValidatorHint(name, val), errors.New(msg)
		}
	}
	switch t {
	case TypeBoolean:
		return strconv.FormatBool(v.Bool), "", nil
	case TypeInt, TypeShort, TypeLong:
		return strconv.FormatInt(v.Int, 10), "", nil
	case TypeList:
		return strings.Join(v.List, ","), "", nil
	case TypeDouble:
		return strconv.FormatFloat(v.Float, 'g', -1, 64), "", nil
	}
	return v.Str, "", nil
}

// clientValidatorHint says what to write instead of a value a client's
// validator refused: validatorHint's advice, and the valid values for the
// clients' function validators, which docs/config.md does not list.
func clientValidatorHint(name string, val Validator) string {
	if f, ok := val.(FuncValidator); ok {
		return fmt.Sprintf("set %s to one of %s", name, f)
	}
	return validatorHint(name, &Key{Validator: val})
}
