package compat

import (
	"io"
	"log/slog"
	"strings"
	"testing"
)

func newJSONLogger(w io.Writer) *slog.Logger { return slog.New(slog.NewJSONHandler(w, nil)) }

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
	all := map[string]map[string]string{
		"main": c.MainConsumerConfig("p", 1), "restore": c.RestoreConsumerConfig("p", 1), "global": c.GlobalConsumerConfig("p"),
		"producer": c.ProducerConfig("p", 1), "admin": c.AdminConfig("p"),
	}
	for name, m := range all {
		for k, want := range map[string]string{"security.protocol": "sasl_ssl", "sasl.mechanism": "PLAIN", "sasl.username": "u",
			"sasl.password": "p", "ssl.ca.location": "/ca.pem", "ssl.endpoint.identification.algorithm": "none", "bootstrap.servers": "127.0.0.1:9092"} {
			if m[k] != want {
				t.Errorf("%s: %s = %q, want %q", name, k, m[k], want)
			}
		}
	}
}

func TestClientPrefixPrecedence(t *testing.T) {
	c, diags := load(t, base+"session.timeout.ms=10000\nconsumer.session.timeout.ms=20000\nmain.consumer.session.timeout.ms=30000\nrestore.consumer.fetch.min.bytes=7\nproducer.session.timeout.ms=1\n")
	if diags.HasErrors() {
		t.Fatal(diags.Errors())
	}
	if got := c.MainConsumerConfig("p", 1)["session.timeout.ms"]; got != "30000" {
		t.Errorf("main consumer: %s", got)
	}
	if got := c.RestoreConsumerConfig("p", 1)["session.timeout.ms"]; got != "20000" {
		t.Errorf("restore consumer: %s", got)
	}
	if got := c.RestoreConsumerConfig("p", 1)["fetch.min.bytes"]; got != "7" {
		t.Errorf("restore fetch.min.bytes: %s", got)
	}
	if _, ok := c.MainConsumerConfig("p", 1)["fetch.min.bytes"]; ok {
		t.Error("restore.consumer. leaked into the main consumer")
	}
	if _, ok := c.ProducerConfig("p", 1)["session.timeout.ms"]; ok {
		t.Error("consumer key reached the producer")
	}
}

func TestExactlyOnceClientOverrides(t *testing.T) {
	c, diags := load(t, base+"processing.guarantee=exactly_once_v2\nconsumer.isolation.level=read_uncommitted\nproducer.enable.idempotence=false\nproducer.transactional.id=mine\nenable.auto.commit=true\n")
	if diags.HasErrors() {
		t.Fatal(diags.Errors())
	}
	for _, m := range []map[string]string{c.MainConsumerConfig("pid", 2), c.RestoreConsumerConfig("pid", 2), c.GlobalConsumerConfig("pid")} {
		if m["isolation.level"] != "read_committed" || m["enable.auto.commit"] != "false" {
			t.Errorf("consumer %v", m)
		}
	}
	pm := c.ProducerConfig("pid", 2)
	for k, want := range map[string]string{"enable.idempotence": "true", "transaction.timeout.ms": "10000", "transactional.id": "app-pid-2",
		"client.id": "app-pid-StreamThread-2-producer", "linger.ms": "100", "partitioner": "murmur2_random"} {
		if pm[k] != want {
			t.Errorf("producer %s = %q, want %q", k, pm[k], want)
		}
	}
	mm := c.MainConsumerConfig("pid", 2)
	if mm["group.id"] != "app" || mm["client.id"] != "app-pid-StreamThread-2-consumer" || mm["auto.offset.reset"] != "earliest" {
		t.Errorf("main consumer %v", mm)
	}
	if got := c.RestoreConsumerConfig("pid", 2)["client.id"]; got != "app-pid-StreamThread-2-restore-consumer" {
		t.Errorf("restore client id %q", got)
	}
	if got := c.AdminConfig("pid")["client.id"]; got != "app-pid-admin" {
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
	if _, ok := c.ProducerConfig("p", 1)["transactional.id"]; ok {
		t.Error("transactional.id under at_least_once")
	}
	if c.MainConsumerConfig("p", 1)["isolation.level"] != "" {
		t.Error("isolation.level set under at_least_once")
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
	pm := c.ProducerConfig("p", 1)
	if pm["queue.buffering.max.kbytes"] != "32768" || pm["message.max.bytes"] != "2097152" || pm["ssl.keystore.location"] != "/etc/k.p12" || pm["client.dns.lookup"] != "use_all_dns_ips" {
		t.Errorf("producer %v", pm)
	}
	for k := range c.MainConsumerConfig("p", 1) {
		if k == "key.deserializer" || k == "interceptor.classes" || k == "max.poll.records" || k == "ssl.protocol" {
			t.Errorf("%s reached librdkafka", k)
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
	for name, m := range map[string]map[string]string{"main": c.MainConsumerConfig("p", 1), "restore": c.RestoreConsumerConfig("p", 1), "global": c.GlobalConsumerConfig("p")} {
		if m["isolation.level"] != "read_committed" {
			t.Errorf("%s consumer isolation.level = %q", name, m["isolation.level"])
		}
	}
	if n := len(diags.Warnings()); n != 3 {
		t.Errorf("%d warnings, want 3: %v", n, diags)
	}
	c, _ = load(t, base+"main.consumer.isolation.level=read_committed\n")
	if c.MainConsumerConfig("p", 1)["isolation.level"] != "read_committed" {
		t.Error("user read_committed under at_least_once lost")
	}
}

// TestRestoreConsumerConfigIsWhatTheThreadUses pins the settings the stream
// thread's restore consumer needs; the thread passes this map unchanged, so
// `sidecar config` prints what runs.
func TestRestoreConsumerConfigIsWhatTheThreadUses(t *testing.T) {
	c, diags := load(t, base)
	if diags.HasErrors() {
		t.Fatal(diags.Errors())
	}
	m := c.RestoreConsumerConfig("pid", 3)
	for k, want := range map[string]string{"group.id": "app-restore", "enable.partition.eof": "true", "fetch.wait.max.ms": "50",
		"auto.offset.reset": "error", "enable.auto.commit": "false", "client.id": "app-pid-StreamThread-3-restore-consumer"} {
		if m[k] != want {
			t.Errorf("restore consumer %s = %q, want %q", k, m[k], want)
		}
	}
	if _, ok := m["group.instance.id"]; ok {
		t.Errorf("restore consumer has a group.instance.id: %v", m)
	}
	// A user's fetch wait for the restore consumer wins over StoatFlow's 50 ms.
	c, _ = load(t, base+"restore.consumer.fetch.max.wait.ms=200\n")
	if got := c.RestoreConsumerConfig("pid", 1)["fetch.wait.max.ms"]; got != "200" {
		t.Errorf("restore.consumer.fetch.max.wait.ms=200 gave fetch.wait.max.ms=%q", got)
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
