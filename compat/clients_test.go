package compat

import (
	"io"
	"log/slog"
	"strings"
	"testing"
)

func newJSONLogger(w io.Writer) *slog.Logger { return slog.New(slog.NewJSONHandler(w, nil)) }

// option returns the value of a client's franz-go option, and whether the
// client has it.
func option(c *Config, kind ClientKind, thread int, name string) (string, bool) {
	for _, o := range c.ClientOptions(kind, "pid", thread).Options {
		if o.Option == name {
			return o.Value, true
		}
	}
	return "", false
}

var allKinds = map[string]ClientKind{"main": MainConsumer, "restore": RestoreConsumer, "global": GlobalConsumer, "producer": Producer, "admin": Admin}

// TestUnprefixedSecurityKeysReachEveryClient guards against dropping bare
// security.protocol, ssl.* and sasl.* keys (a known JVM-product regression).
func TestUnprefixedSecurityKeysReachEveryClient(t *testing.T) {
	c, diags := load(t, base+`security.protocol=SASL_SSL
sasl.mechanism=PLAIN
sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="p";
ssl.truststore.type=PEM
ssl.truststore.location=/ca.pem
ssl.endpoint.identification.algorithm=
`)
	if diags.HasErrors() {
		t.Fatal(diags.Errors())
	}
	for name, kind := range allKinds {
		for opt, want := range map[string]string{"kgo.SASL": "PLAIN user u password [hidden]",
			"kgo.DialTLSConfig": "TLS 1.2 to TLS 1.3; trust store /ca.pem (PEM); certificate chain verified, host name not checked",
			"kgo.SeedBrokers":   "127.0.0.1:9092"} {
			if got, _ := option(c, kind, 1, opt); got != want {
				t.Errorf("%s: %s = %q, want %q", name, opt, got, want)
			}
		}
	}
}

func TestClientPrefixPrecedence(t *testing.T) {
	c, diags := load(t, base+"session.timeout.ms=10000\nconsumer.session.timeout.ms=20000\nmain.consumer.session.timeout.ms=30000\nrestore.consumer.fetch.min.bytes=7\nproducer.session.timeout.ms=1\n")
	if diags.HasErrors() {
		t.Fatal(diags.Errors())
	}
	if got, _ := option(c, MainConsumer, 1, "kgo.SessionTimeout"); got != "30s" {
		t.Errorf("main consumer: %s", got)
	}
	if got, _ := option(c, RestoreConsumer, 1, "kgo.FetchMinBytes"); got != "7" {
		t.Errorf("restore fetch.min.bytes: %s", got)
	}
	if got, ok := option(c, MainConsumer, 1, "kgo.FetchMinBytes"); ok {
		t.Errorf("restore.consumer. leaked into the main consumer: %s", got)
	}
	if _, ok := option(c, Producer, 1, "kgo.SessionTimeout"); ok {
		t.Error("consumer key reached the producer")
	}
}

func TestExactlyOnceClientOverrides(t *testing.T) {
	c, diags := load(t, base+"processing.guarantee=exactly_once_v2\nconsumer.isolation.level=read_uncommitted\nproducer.enable.idempotence=false\nproducer.transactional.id=mine\nenable.auto.commit=true\n")
	if diags.HasErrors() {
		t.Fatal(diags.Errors())
	}
	for _, kind := range []ClientKind{MainConsumer, RestoreConsumer, GlobalConsumer} {
		if got, _ := option(c, kind, 2, "kgo.FetchIsolationLevel"); got != "read_committed" {
			t.Errorf("%s isolation %q", kind, got)
		}
	}
	if got, _ := option(c, MainConsumer, 2, "kgo.DisableAutoCommit"); got != "true" {
		t.Errorf("main consumer auto commit not disabled: %q", got)
	}
	for opt, want := range map[string]string{"idempotent writes": "true", "kgo.TransactionTimeout": "10s", "kgo.TransactionalID": "app-pid-2",
		"kgo.ClientID": "app-pid-StreamThread-2-producer", "kgo.ProducerLinger": "100ms"} {
		if got, _ := option(c, Producer, 2, opt); got != want {
			t.Errorf("producer %s = %q, want %q", opt, got, want)
		}
	}
	for opt, want := range map[string]string{"kgo.ConsumerGroup": "app", "kgo.ClientID": "app-pid-StreamThread-2-consumer", "kgo.ConsumeResetOffset": "start"} {
		if got, _ := option(c, MainConsumer, 2, opt); got != want {
			t.Errorf("main consumer %s = %q, want %q", opt, got, want)
		}
	}
	if c.AutoOffsetReset() != "earliest" {
		t.Errorf("AutoOffsetReset %q", c.AutoOffsetReset())
	}
	if got, _ := option(c, RestoreConsumer, 2, "kgo.ClientID"); got != "app-pid-StreamThread-2-restore-consumer" {
		t.Errorf("restore client id %q", got)
	}
	if got, _ := option(c, Admin, 0, "kgo.ClientID"); got != "app-pid-admin" {
		t.Errorf("admin client id %q", got)
	}
	for _, w := range []string{
		`Unexpected user-specified consumer config 'isolation.level' found. 'processing.guarantee' is set to "exactly_once_v2". Hence, user setting (read_uncommitted) will be ignored and the Streams default setting (read_committed) will be used.`,
		`Unexpected user-specified producer config 'transactional.id' found. 'processing.guarantee' is set to "exactly_once_v2". Hence, user setting (mine) will be ignored and the Streams default setting (<appId>-<generatedSuffix>) will be used.`,
		`Unexpected user-specified producer config 'enable.idempotence' found. 'processing.guarantee' is set to "exactly_once_v2". Hence, user setting (false) will be ignored and the Streams default setting (true) will be used.`,
		"Unexpected user-specified consumer config 'enable.auto.commit' found. User setting (true) will be ignored and the Streams default setting (false) will be used.",
	} {
		if !hasWarning(diags, w) {
			t.Errorf("missing warning %q in %v", w, diags)
		}
	}
	c, _ = load(t, base)
	if _, ok := option(c, Producer, 1, "kgo.TransactionalID"); ok {
		t.Error("transactional id under at_least_once")
	}
	if got, _ := option(c, MainConsumer, 1, "kgo.FetchIsolationLevel"); got != "read_uncommitted" {
		t.Errorf("isolation %q under at_least_once", got)
	}
}

func TestJavaOnlyClientKeys(t *testing.T) {
	c, diags := load(t, base+`key.deserializer=org.apache.kafka.common.serialization.StringDeserializer
interceptor.classes=io.confluent.monitoring.clients.interceptor.MonitoringConsumerInterceptor
client.dns.lookup=use_all_dns_ips
max.poll.records=1000
ssl.keystore.location=/etc/k.p12
ssl.keystore.password=pw
producer.buffer.memory=33554432
producer.max.request.size=2097152
ssl.protocol=TLSv1.3
`)
	if diags.HasErrors() {
		t.Fatal(diags.Errors())
	}
	for _, kind := range allKinds {
		for _, o := range c.ClientOptions(kind, "pid", 1).Options {
			for _, k := range []string{"key.deserializer", "interceptor.classes", "ssl.protocol", "ssl.keystore"} {
				if strings.Contains(o.From, k) {
					t.Errorf("%s reached the %s: %v", k, kind, o)
				}
			}
		}
	}
	var msgs []string
	for _, d := range diags {
		msgs = append(msgs, d.Key)
	}
	// ssl.keystore.location is unused under PLAINTEXT, and said to be.
	if got := strings.Join(msgs, ","); got != "key.deserializer,interceptor.classes,ssl.keystore.location" {
		t.Errorf("warned about %s", got)
	}
}

// TestEOSConsumersReadCommittedEvenWhenPrefixed guards against consumers that
// read aborted records under exactly_once_v2: Kafka Streams 4.4 lets a
// main./restore./global.consumer.isolation.level=read_uncommitted through;
// StoatFlow refuses it with a warning.
func TestEOSConsumersReadCommittedEvenWhenPrefixed(t *testing.T) {
	c, diags := load(t, base+"processing.guarantee=exactly_once_v2\nmain.consumer.isolation.level=read_uncommitted\nrestore.consumer.isolation.level=read_uncommitted\nglobal.consumer.isolation.level=READ_UNCOMMITTED\n")
	if diags.HasErrors() {
		t.Fatal(diags.Errors())
	}
	for _, kind := range []ClientKind{MainConsumer, RestoreConsumer, GlobalConsumer} {
		if got, _ := option(c, kind, 1, "kgo.FetchIsolationLevel"); got != "read_committed" {
			t.Errorf("%s isolation = %q", kind, got)
		}
	}
	if n := len(diags.Warnings()); n != 3 {
		t.Errorf("%d warnings, want 3: %v", n, diags)
	}
	c, _ = load(t, base+"main.consumer.isolation.level=read_committed\n")
	if got, _ := option(c, MainConsumer, 1, "kgo.FetchIsolationLevel"); got != "read_committed" {
		t.Error("user read_committed under at_least_once lost")
	}
}

// TestRestoreConsumerOptionsAreWhatTheThreadUses pins the settings the stream
// thread's restore consumer needs; the thread builds its client from the same
// options `sidecar config` prints.
func TestRestoreConsumerOptionsAreWhatTheThreadUses(t *testing.T) {
	// A user's fetch wait for the restore consumer wins over StoatFlow's 50 ms.
	c, diags := load(t, base+"restore.consumer.fetch.max.wait.ms=200\n")
	if diags.HasErrors() {
		t.Fatal(diags.Errors())
	}
	var b strings.Builder
	if err := c.WriteClientConfigs(&b, "pid"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"franz-go main consumer (StreamThread-1) options: \n", "franz-go restore consumer (StreamThread-1) options: \n",
		"\tkgo.FetchMaxWait = 200ms  (restore.consumer.fetch.max.wait.ms)\n", "\tkgo.ConsumeResetOffset = none (an out-of-range offset is an error)  (Kafka Streams default)\n",
		"franz-go producer (StreamThread-1) options: \n", "franz-go admin options: \n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("printed client configs lack %q:\n%s", want, b.String())
		}
	}
	restore := c.ClientOptions(RestoreConsumer, "pid", 1)
	for _, o := range restore.Options {
		if o.Option == "kgo.ConsumerGroup" || o.Option == "kgo.InstanceID" {
			t.Errorf("the restore consumer joins a group: %v", o)
		}
	}
	c, _ = load(t, base)
	var d strings.Builder
	c.WriteClientConfigs(&d, "pid")
	if !strings.Contains(d.String(), "\tkgo.FetchMaxWait = 50ms  (StoatFlow (ends of changelogs show sooner))\n") {
		t.Errorf("restore consumer without a user fetch wait:\n%s", d.String())
	}
}

// TestStaticMemberNameSurvivesALostStateDirectory: the default static
// member name depends on the host, the application and the state
// directory's path, not on what the directory holds (the process id), so an
// instance restarted on an empty directory at the same path takes its own
// members' places; another path or host gives another name.
func TestStaticMemberNameSurvivesALostStateDirectory(t *testing.T) {
	cfg := func(host, dir string) *Config {
		c, diags := load(t, "application.id=app\nbootstrap.servers=localhost:9092\nstate.dir="+dir+"\n", WithHostName(host))
		if err := diags.Err(); err != nil {
			t.Fatal(err)
		}
		return c
	}
	a := cfg("pod-0", "/var/lib/streams")
	if got, again := a.GroupInstanceID(1), cfg("pod-0", "/var/lib/streams").GroupInstanceID(1); got != again {
		t.Fatalf("the same host and state directory gave %q, then %q", got, again)
	}
	if !strings.HasPrefix(a.GroupInstanceID(2), "pod-0-") || !strings.HasSuffix(a.GroupInstanceID(2), "-2") {
		t.Errorf("instance id %q, want pod-0-<hash>-2", a.GroupInstanceID(2))
	}
	for _, other := range []*Config{cfg("pod-1", "/var/lib/streams"), cfg("pod-0", "/var/lib/streams-b")} {
		if other.GroupInstanceID(1) == a.GroupInstanceID(1) {
			t.Errorf("another host or state directory gave the same instance id %q", a.GroupInstanceID(1))
		}
	}
	if got := cfg("pod 0/ü", "/x").StaticMemberName(); strings.ContainsAny(got, " /ü") {
		t.Errorf("static member name %q keeps characters a group.instance.id may not have", got)
	}
}
