package compat

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
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
// 5. The franz-go producer is idempotent exactly where the Java producer
// would be.
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

// clients builds every client's franz-go options once; kgoOptions adds the
// per-thread ids.
func (l *loader) clients(c *Config) {
	eos := l.values[ProcessingGuaranteeConfig].Str == "exactly_once_v2"
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
		if kind == Producer {
			c.ProducerBatchBytes = 16384
			if n, err := strconv.Atoi(javaTrim(java["batch.size"].value)); err == nil && n >= 0 {
				c.ProducerBatchBytes = n
			}
		}
		if kind == MainConsumer {
			c.groupInstance = java["group.instance.id"]
			c.autoOffsetReset = strings.ToLower(javaTrim(java["auto.offset.reset"].value))
		}
		c.kgo[kind] = l.mapKgo(kind, java, eos)
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

// GroupInstanceID returns the group.instance.id of stream thread threadIdx's
// main consumer, "" when it is a dynamic member: a user group.instance.id
// gets "-<n>" appended, as in Kafka Streams, and without one StaticMembership
// makes it StaticMemberName()-<n>.
func (c *Config) GroupInstanceID(threadIdx int) string {
	if gi := c.groupInstance.value; gi != "" {
		return gi + "-" + strconv.Itoa(threadIdx)
	}
	if c.StaticMembership {
		return c.StaticMemberName() + "-" + strconv.Itoa(threadIdx)
	}
	return ""
}

// StaticMemberName names an instance's static group members by what
// survives the loss of its state directory: the host's name and a hash of
// the application id and the state directory's absolute path,
// "<host>-<8 hex digits>". A pod that restarts on a new volume keeps both,
// so its members replace the ones it left at once, instead of waiting out
// session.timeout.ms (its process id, kept inside the directory, is new);
// two instances on one host never share a state directory, which is
// locked, so their names differ.
func (c *Config) StaticMemberName() string {
	dir := c.StateDir
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	sum := sha256.Sum256([]byte(c.ApplicationID + "\x00" + dir))
	host := strings.Map(func(r rune) rune {
		if r < 0x80 && (r == '.' || r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return r
		}
		return '_'
	}, c.hostname)
	if host == "" {
		host = "host"
	}
	return host + "-" + hex.EncodeToString(sum[:4])
}

// AutoOffsetReset returns the main consumer's auto.offset.reset, lower case:
// "earliest" (Kafka Streams' default), "latest" or "none". It is where a
// partition without a committed offset starts.
func (c *Config) AutoOffsetReset() string { return c.autoOffsetReset }
