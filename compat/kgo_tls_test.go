package compat

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pavlo-v-chernykh/keystore-go/v4"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"software.sslmate.com/src/go-pkcs12"
)

// testPKI is a CA with a broker and a client certificate, written in every
// store format the Java clients read.
type testPKI struct {
	ca        *x509.Certificate
	caKey     *ecdsa.PrivateKey
	dir       string
	caPEM     string // file
	clientPEM string // file: key and chain
	keyPEM    string // inline ssl.keystore.key
	chainPEM  string // inline ssl.keystore.certificate.chain
	clientP12 string // file, password "p12-pw"
	clientJKS string // file, store password "jks-pw", key password "key-pw"
	trustP12  string // file, password "trust-pw"
	trustJKS  string // file, password "trust-pw"
	client    *x509.Certificate
}

func newCert(t *testing.T, tmpl *x509.Certificate, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) (*x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return c, key
}

var serial int64

func template(cn string, ca bool) *x509.Certificate {
	serial++
	c := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour)}
	if ca {
		c.IsCA, c.BasicConstraintsValid, c.KeyUsage = true, true, x509.KeyUsageCertSign|x509.KeyUsageDigitalSignature
	} else {
		c.KeyUsage = x509.KeyUsageDigitalSignature
		c.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth, x509.ExtKeyUsageServerAuth}
	}
	return c
}

func pemOf(typ string, der []byte) string {
	return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
}

func newTestPKI(t *testing.T) *testPKI {
	t.Helper()
	p := &testPKI{dir: t.TempDir()}
	p.ca, p.caKey = newCert(t, template("stoatflow test CA", true), nil, nil)
	client, clientKey := newCert(t, template("stoatflow test client", false), p.ca, p.caKey)
	p.client = client
	keyDER, err := x509.MarshalPKCS8PrivateKey(clientKey)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) string {
		f := filepath.Join(p.dir, name)
		if err := os.WriteFile(f, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return f
	}
	p.keyPEM = pemOf("PRIVATE KEY", keyDER)
	p.chainPEM = pemOf("CERTIFICATE", client.Raw) + pemOf("CERTIFICATE", p.ca.Raw)
	p.caPEM = write("ca.pem", []byte(pemOf("CERTIFICATE", p.ca.Raw)))
	p.clientPEM = write("client.pem", []byte(p.keyPEM+p.chainPEM))
	p12, err := pkcs12.Modern.Encode(clientKey, client, []*x509.Certificate{p.ca}, "p12-pw")
	if err != nil {
		t.Fatal(err)
	}
	p.clientP12 = write("client.p12", p12)
	tp12, err := pkcs12.Modern.EncodeTrustStore([]*x509.Certificate{p.ca}, "trust-pw")
	if err != nil {
		t.Fatal(err)
	}
	p.trustP12 = write("trust.p12", tp12)
	ks := keystore.New()
	if err := ks.SetPrivateKeyEntry("client", keystore.PrivateKeyEntry{CreationTime: time.Now(), PrivateKey: keyDER,
		CertificateChain: []keystore.Certificate{{Type: "X509", Content: client.Raw}, {Type: "X509", Content: p.ca.Raw}}}, []byte("key-pw")); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := ks.Store(&b, []byte("jks-pw")); err != nil {
		t.Fatal(err)
	}
	p.clientJKS = write("client.jks", b.Bytes())
	ts := keystore.New()
	if err := ts.SetTrustedCertificateEntry("ca", keystore.TrustedCertificateEntry{CreationTime: time.Now(), Certificate: keystore.Certificate{Type: "X509", Content: p.ca.Raw}}); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := ts.Store(&b, []byte("trust-pw")); err != nil {
		t.Fatal(err)
	}
	p.trustJKS = write("trust.jks", b.Bytes())
	return p
}

// serverTLS is a broker's TLS config: a certificate for names, signed by
// the CA, and client certificates required.
func (p *testPKI) serverTLS(t *testing.T, ips []net.IP, names ...string) *tls.Config {
	tmpl := template("broker", false)
	tmpl.IPAddresses, tmpl.DNSNames = ips, names
	cert, key := newCert(t, tmpl, p.ca, p.caKey)
	pool := x509.NewCertPool()
	pool.AddCert(p.ca)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{cert.Raw, p.ca.Raw}, PrivateKey: key}},
		ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool, MinVersion: tls.VersionTLS12}
}

func TestStoresOfEveryFormatLoad(t *testing.T) {
	p := newTestPKI(t)
	for _, tc := range []struct{ typ, loc, pw string }{{"PEM", p.caPEM, ""}, {"PKCS12", p.trustP12, "trust-pw"}, {"JKS", p.trustJKS, "trust-pw"},
		{"JKS", p.trustJKS, ""}, {"JKS", p.trustP12, "trust-pw"}, {"PKCS12", p.trustJKS, "trust-pw"}} {
		certs, err := readTrustStore(tc.typ, tc.loc, tc.pw)
		if err != nil || len(certs) != 1 || !certs[0].Equal(p.ca) {
			t.Errorf("trust store %s %s: %v %v", tc.typ, filepath.Base(tc.loc), certs, err)
		}
	}
	for _, tc := range []struct{ typ, loc, storePW, keyPW string }{{"PEM", p.clientPEM, "", ""}, {"PKCS12", p.clientP12, "p12-pw", ""},
		{"JKS", p.clientJKS, "jks-pw", "key-pw"}, {"JKS", p.clientP12, "p12-pw", ""}} {
		certs, err := readKeyStore(tc.typ, tc.loc, tc.storePW, tc.keyPW)
		if err != nil || len(certs) != 1 || !bytes.Equal(certs[0].Certificate[0], p.client.Raw) || len(certs[0].Certificate) != 2 {
			t.Errorf("key store %s %s: %v", tc.typ, filepath.Base(tc.loc), err)
		}
	}
	for _, tc := range []struct{ typ, loc, storePW, keyPW, want string }{
		{"PKCS12", p.clientP12, "wrong", "", "check ssl.keystore.password"},
		{"JKS", p.clientJKS, "wrong", "", "check the store password"},
		{"JKS", p.clientJKS, "jks-pw", "wrong", "check ssl.key.password"},
		{"PEM", p.caPEM, "", "", "no PEM private key"},
		{"PKCS12", filepath.Join(p.dir, "missing.p12"), "", "", "no such file"},
	} {
		if _, err := readKeyStore(tc.typ, tc.loc, tc.storePW, tc.keyPW); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("key store %s %s with the wrong password: %v, want %q", tc.typ, filepath.Base(tc.loc), err, tc.want)
		}
	}
	if _, err := readTrustStore("JKS", p.trustJKS, "wrong"); err == nil {
		t.Error("a JKS trust store with the wrong password loads")
	}
	encrypted := filepath.Join(p.dir, "enc.pem")
	os.WriteFile(encrypted, []byte(pemOf("ENCRYPTED PRIVATE KEY", []byte{1})+p.chainPEM), 0o600)
	if _, err := readKeyStore("PEM", encrypted, "", "pw"); err == nil || !strings.Contains(err.Error(), "openssl pkcs8") {
		t.Errorf("encrypted PEM key: %v", err)
	}
}

// TestStoresMadeByKeytoolLoad reads stores the JDK's keytool wrote
// (testdata/tls/README.md), including a JKS key whose password differs from
// the store's.
func TestStoresMadeByKeytoolLoad(t *testing.T) {
	dir := filepath.Join("testdata", "tls")
	want, err := pemCerts(mustRead(t, filepath.Join(dir, "client-jks.pem")))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ typ, file, pw string }{{"JKS", "trust.jks", "trust-pw"}, {"PKCS12", "trust.p12", "trust-pw"}, {"JKS", "trust.p12", "trust-pw"}} {
		certs, err := readTrustStore(tc.typ, filepath.Join(dir, tc.file), tc.pw)
		if err != nil || len(certs) != 1 || !certs[0].Equal(want[0]) {
			t.Errorf("%s: %v %v", tc.file, certs, err)
		}
	}
	certs, err := readKeyStore("JKS", filepath.Join(dir, "client.jks"), "jks-store-pw", "jks-key-pw")
	if err != nil || len(certs) != 1 || !bytes.Equal(certs[0].Certificate[0], want[0].Raw) {
		t.Errorf("client.jks: %v", err)
	}
	certs, err = readKeyStore("PKCS12", filepath.Join(dir, "client.p12"), "p12-store-pw", "")
	if err != nil || len(certs) != 1 {
		t.Fatalf("client.p12: %v", err)
	}
	leaf, err := x509.ParseCertificate(certs[0].Certificate[0])
	if err != nil || leaf.Subject.CommonName != "stoatflow-test-client-p12" {
		t.Errorf("client.p12 leaf %v %v", leaf, err)
	}
}

func mustRead(t *testing.T, f string) []byte {
	t.Helper()
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ping makes an admin client from the properties and asks the broker for
// its metadata, which needs the TLS handshake and SASL to succeed.
func ping(t *testing.T, src string) error {
	t.Helper()
	c, diags := load(t, src)
	if diags.HasErrors() {
		t.Fatalf("%v", diags.Errors())
	}
	opts, err := c.AdminOptions("pid")
	if err != nil {
		return err
	}
	cl, err := kgo.NewClient(append(opts, kgo.RequestRetries(0), kgo.RetryTimeout(2*time.Second))...)
	if err != nil {
		return err
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return cl.Ping(ctx)
}

// TestTLSAndSASLHandshakesWithKfake connects to an in-process broker that
// requires TLS with client certificates and SASL, through the options the
// Java keys map to.
func TestTLSAndSASLHandshakesWithKfake(t *testing.T) {
	p := newTestPKI(t)
	start := func(c *tls.Config) string {
		cl, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.TLS(c), kfake.EnableSASL(),
			kfake.Superuser("SCRAM-SHA-512", "alice", "alice-pw"), kfake.Superuser("PLAIN", "bob", "bob-pw"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cl.Close)
		return cl.ListenAddrs()[0]
	}
	localhost := start(p.serverTLS(t, []net.IP{net.ParseIP("127.0.0.1")}, "localhost"))
	elsewhere := start(p.serverTLS(t, nil, "broker.example"))
	scram := "sasl.mechanism=SCRAM-SHA-512\nsasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"alice\" password=\"%s\";\n"
	plain := "sasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"bob\" password=\"bob-pw\";\n"
	jksTrust := "ssl.truststore.location=" + p.trustJKS + "\nssl.truststore.password=trust-pw\n"
	p12Key := "ssl.keystore.type=PKCS12\nssl.keystore.location=" + p.clientP12 + "\nssl.keystore.password=p12-pw\n"
	jksKey := "ssl.keystore.location=" + p.clientJKS + "\nssl.keystore.password=jks-pw\nssl.key.password=key-pw\n"
	pemTrust := "ssl.truststore.type=PEM\nssl.truststore.location=" + p.caPEM + "\n"
	inlineKey := "ssl.keystore.type=PEM\nssl.keystore.key=" + escapeNL(p.keyPEM) + "\nssl.keystore.certificate.chain=" + escapeNL(p.chainPEM) + "\n"
	inlineTrust := "ssl.truststore.type=PEM\nssl.truststore.certificates=" + escapeNL(pemOf("CERTIFICATE", p.ca.Raw)) + "\n"
	p12Trust := "ssl.truststore.type=PKCS12\nssl.truststore.location=" + p.trustP12 + "\nssl.truststore.password=trust-pw\n"
	other := newTestPKI(t)
	for _, tc := range []struct {
		name, addr, src, fail string
	}{
		{"JKS trust, PKCS12 key, SCRAM-SHA-512", localhost, jksTrust + p12Key + strings.Replace(scram, "%s", "alice-pw", 1), ""},
		{"PEM files, PLAIN", localhost, pemTrust + "ssl.keystore.type=PEM\nssl.keystore.location=" + p.clientPEM + "\n" + plain, ""},
		{"inline PEM, PLAIN, TLS 1.2 only", localhost, inlineTrust + inlineKey + plain + "ssl.protocol=TLSv1.2\nssl.cipher.suites=TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256\n", ""},
		{"PKCS12 trust, JKS key, socket buffers", localhost, p12Trust + jksKey + plain + "receive.buffer.bytes=131072\nsend.buffer.bytes=131072\n", ""},
		{"wrong SCRAM password", localhost, jksTrust + p12Key + strings.Replace(scram, "%s", "wrong", 1), "SASL"},
		{"no client certificate", localhost, jksTrust + plain, "tls"},
		{"host name differs", elsewhere, jksTrust + p12Key + plain, "certificate"},
		{"host name not checked", elsewhere, jksTrust + p12Key + plain + "ssl.endpoint.identification.algorithm=\n", ""},
		{"untrusted CA, host name not checked", elsewhere, "ssl.truststore.type=PEM\nssl.truststore.location=" + other.caPEM + "\n" + p12Key + plain + "ssl.endpoint.identification.algorithm=\n", "certificate"},
		{"system roots do not trust a private CA", localhost, p12Key + plain, "certificate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := ping(t, "application.id=app\nbootstrap.servers="+tc.addr+"\nsecurity.protocol=SASL_SSL\n"+tc.src)
			switch {
			case tc.fail == "" && err != nil:
				t.Errorf("connect: %v", err)
			case tc.fail != "" && err == nil:
				t.Errorf("connected; want a failure (%s)", tc.fail)
			case tc.fail != "" && !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(tc.fail)):
				t.Logf("failed as wanted, with %v", err)
			}
		})
	}
}

// escapeNL writes a PEM block as one .properties value.
func escapeNL(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "\n", `\n`) }

// TestEveryClientsOptionsMakeAClient: franz-go accepts each option set (it
// refuses conflicting ones, e.g. a transactional id without idempotence),
// and the EOS producer and main consumer work against kfake.
func TestEveryClientsOptionsMakeAClient(t *testing.T) {
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "in"))
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	addr := cluster.ListenAddrs()[0]
	for _, extra := range []string{"", "processing.guarantee=exactly_once_v2\n", "producer.acks=1\nproducer.compression.type=gzip\nconsumer.auto.offset.reset=latest\n"} {
		c, diags := load(t, "application.id=app\nbootstrap.servers="+addr+"\n"+extra)
		if diags.HasErrors() {
			t.Fatal(diags.Errors())
		}
		for name, build := range map[string]func() ([]kgo.Opt, error){
			"main consumer":    func() ([]kgo.Opt, error) { return c.MainConsumerOptions("pid", 1) },
			"restore consumer": func() ([]kgo.Opt, error) { return c.RestoreConsumerOptions("pid", 1) },
			"global consumer":  func() ([]kgo.Opt, error) { return c.GlobalConsumerOptions("pid") },
			"producer":         func() ([]kgo.Opt, error) { return c.ProducerOptions("pid", 1) },
			"admin":            func() ([]kgo.Opt, error) { return c.AdminOptions("pid") },
		} {
			opts, err := build()
			if err != nil {
				t.Fatalf("%q %s: %v", extra, name, err)
			}
			cl, err := kgo.NewClient(opts...)
			if err != nil {
				t.Fatalf("%q %s: franz-go refuses the options: %v", extra, name, err)
			}
			cl.Close()
		}
	}
	c, _ := load(t, "application.id=app\nbootstrap.servers="+addr+"\nprocessing.guarantee=exactly_once_v2\n")
	popts, _ := c.ProducerOptions("pid", 1)
	p, err := kgo.NewClient(append(popts, kgo.DefaultProduceTopic("in"))...)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := p.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	if err := p.ProduceSync(ctx, kgo.StringRecord("committed")).FirstErr(); err != nil {
		t.Fatal(err)
	}
	if err := p.EndTransaction(ctx, kgo.TryCommit); err != nil {
		t.Fatal(err)
	}
	copts, _ := c.MainConsumerOptions("pid", 1)
	cons, err := kgo.NewClient(append(copts, kgo.ConsumeTopics("in"))...)
	if err != nil {
		t.Fatal(err)
	}
	defer cons.Close()
	fs := cons.PollFetches(ctx)
	if err := fs.Err0(); err != nil {
		t.Fatal(err)
	}
	if recs := fs.Records(); len(recs) != 1 || string(recs[0].Value) != "committed" {
		t.Errorf("read %v", recs)
	}
}
