package compat_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/properties"
)

func configMap(m map[string]string) *kafka.ConfigMap {
	cm := kafka.ConfigMap{"log_level": "0"} // the brokers are unreachable on purpose
	for k, v := range m {
		cm[k] = v
	}
	return &cm
}

// TestLibrdkafkaAcceptsDerivedConfigs hands every derived client configuration
// to librdkafka 2.11, which refuses unknown properties and bad values when a
// client is created (no broker is contacted before that check).
func TestLibrdkafkaAcceptsDerivedConfigs(t *testing.T) {
	pemFile := selfSignedPEM(t)
	for name, src := range map[string]string{
		"SSL with PEM stores": "application.id=app\nbootstrap.servers=127.0.0.1:1\nsecurity.protocol=SSL\n" +
			"ssl.truststore.type=PEM\nssl.truststore.location=" + pemFile + "\nssl.keystore.type=PEM\nssl.keystore.location=" + pemFile + "\n",
		"at_least_once": "application.id=app\nbootstrap.servers=127.0.0.1:1\n",
		"exactly_once_v2 with SASL and tuning": `application.id=app
bootstrap.servers=127.0.0.1:1
processing.guarantee=exactly_once_v2
security.protocol=SASL_PLAINTEXT
sasl.mechanism=PLAIN
sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="p";
request.timeout.ms=30000
receive.buffer.bytes=-1
consumer.session.timeout.ms=30000
main.consumer.fetch.max.wait.ms=200
main.consumer.group.instance.id=app-instance
restore.consumer.max.partition.fetch.bytes=10485760
producer.acks=all
producer.compression.type=zstd
producer.compression.zstd.level=5
producer.buffer.memory=33554432
producer.max.request.size=2097152
producer.linger.ms=5
producer.batch.size=262144
producer.delivery.timeout.ms=9000
admin.retries=3
client.dns.lookup=use_all_dns_ips
`,
	} {
		t.Run(name, func(t *testing.T) {
			p, err := properties.Parse("t.properties", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			c, diags := compat.Load(p)
			if diags.HasErrors() {
				t.Fatal(diags.Errors())
			}
			const pid = "6f1a7c1e-3b1d-4c55-9a31-0c1f2e9b5d77"
			for _, m := range []map[string]string{c.MainConsumerConfig(pid, 1), c.RestoreConsumerConfig(pid, 1), c.GlobalConsumerConfig(pid)} {
				if _, ok := m["group.id"]; !ok {
					m["group.id"] = "unused" // librdkafka's high-level consumer requires one; the engine assigns partitions
				}
				cons, err := kafka.NewConsumer(configMap(m))
				if err != nil {
					t.Fatalf("consumer %s: %v\n%v", m["client.id"], err, m)
				}
				cons.Close()
			}
			prod, err := kafka.NewProducer(configMap(c.ProducerConfig(pid, 1)))
			if err != nil {
				t.Fatalf("producer: %v\n%v", err, c.ProducerConfig(pid, 1))
			}
			prod.Close()
			adm, err := kafka.NewAdminClient(configMap(c.AdminConfig(pid)))
			if err != nil {
				t.Fatalf("admin: %v\n%v", err, c.AdminConfig(pid))
			}
			adm.Close()
		})
	}
}

// selfSignedPEM writes a certificate and its private key into one PEM file, the
// layout of a Java PEM key store.
func selfSignedPEM(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "stoatflow-test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	out := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	out = append(out, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder})...)
	f := filepath.Join(t.TempDir(), "client.pem")
	if err := os.WriteFile(f, out, 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}
