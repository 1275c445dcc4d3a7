package compat

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func allJavaClientKeys() []string {
	var keys []string
	for _, m := range []map[string]bool{commonClientNames, consumerOnlyNames, producerOnlyNames, adminOnlyNames} {
		for k := range m {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	slices.Sort(keys)
	return keys
}

// TestEveryJavaClientKeyHasOneKgoOutcome fails on a Java client key with no
// franz-go outcome, or with more than one.
func TestEveryJavaClientKeyHasOneKgoOutcome(t *testing.T) {
	keys := allJavaClientKeys()
	for _, key := range keys {
		n := 0
		for _, in := range []bool{kgoSecurityKeys[key], kgoMappedKeys[key], kgoRules[key] != (kgoRule{})} {
			if in {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s is in %d of kgoSecurityKeys, kgoMappedKeys and kgoRules; it must be in exactly one", key, n)
		}
		for _, kind := range []ClientKind{MainConsumer, RestoreConsumer, GlobalConsumer, Producer, Admin} {
			if !isClientName(kind, key) {
				continue
			}
			r, ok := kgoRuleFor(kind, key)
			if !ok {
				t.Errorf("%s (%s) has no franz-go outcome", key, kind)
			}
			if r.outcome != kgoMapped && r.why == "" {
				t.Errorf("%s (%s) is not mapped and does not say why", key, kind)
			}
		}
	}
	for _, m := range []map[string]bool{kgoSecurityKeys, kgoMappedKeys} {
		for k := range m {
			if !slices.Contains(keys, k) {
				t.Errorf("%s is mapped but is no Java client key", k)
			}
		}
	}
	for k := range kgoRules {
		if !slices.Contains(keys, k) {
			t.Errorf("kgoRules names %s, which is no Java client key", k)
		}
	}
}

// sampleValue is a valid value of the key's type that differs from quiet.
func sampleValue(key, quiet string) string {
	if v, ok := map[string]string{"share.acknowledgement.mode": "explicit", "metadata.max.idle.ms": "60000",
		"sasl.login.refresh.window.jitter": "0.1", "metrics.recording.level": "DEBUG",
		"sasl.oauthbearer.assertion.algorithm": "ES256"}[key]; ok {
		return v
	}
	t, ok := clientTypes[key]
	if !ok {
		return "com.acme.Example"
	}
	switch t {
	case TypeInt, TypeLong, TypeShort:
		return "7"
	case TypeDouble:
		return "0.6"
	case TypeBoolean:
		if quiet == "true" {
			return "false"
		}
		return "true"
	}
	return "com.acme.Example"
}

// TestUnmappedKeysAreReportedAsTheirRuleSays checks every warning and error
// rule: a user value is reported on its key with the value and the reason,
// the quiet value is not, and a no-effect key is never reported.
func TestUnmappedKeysAreReportedAsTheirRuleSays(t *testing.T) {
	for key, r := range kgoRules {
		// Prefixed, so only the client mapping can report it (a bare key
		// may be a StreamsConfig key with a check of its own).
		prefix := AdminPrefix
		switch {
		case isClientName(Producer, key):
			prefix = ProducerPrefix
		case isClientName(MainConsumer, key):
			prefix = ConsumerPrefix
		}
		v := sampleValue(key, r.quiet)
		_, diags := load(t, base+prefix+key+"="+v+"\n")
		var got []Diagnostic
		for _, d := range diags {
			if d.Key == prefix+key {
				got = append(got, d)
			}
		}
		switch r.outcome {
		case kgoNoEffect:
			if len(got) > 0 {
				t.Errorf("%s=%s has no effect but is reported: %v", key, v, got)
			}
		case kgoWarn, kgoError:
			want := SeverityWarning
			if r.outcome == kgoError {
				want = SeverityError
			}
			shown := v
			if IsSecretKey(key) {
				shown = "[hidden]"
			}
			if len(got) != 1 || got[0].Severity != want || !strings.Contains(got[0].Message, shown) || !strings.Contains(got[0].Message, r.why) {
				t.Errorf("%s=%s: want one %v naming the value and %q, got %v", key, v, want, r.why, got)
			}
			if r.quiet != "" {
				if _, diags := load(t, base+prefix+key+"="+r.quiet+"\n"); len(diags) > 0 {
					t.Errorf("%s=%s (the Java default) is reported: %v", key, r.quiet, diags)
				}
			}
		}
	}
}

// TestMappedKeysReachTheOptions sets each mapped key and finds the option it
// became, with the key as its origin.
func TestMappedKeysReachTheOptions(t *testing.T) {
	eos := "processing.guarantee=exactly_once_v2\n"
	cases := []struct {
		src    string
		kind   ClientKind
		option string
		value  string
	}{
		{"client.dns.lookup=use_all_dns_ips\n", Admin, "kgo.SeedBrokers", "127.0.0.1:9092"},
		{"connections.max.idle.ms=60000\n", Admin, "kgo.ConnIdleTimeout", "1m0s"},
		{"metadata.max.age.ms=1000\n", Producer, "kgo.MetadataMaxAge", "1s"},
		{"retry.backoff.ms=2000\nmetadata.max.age.ms=1000\n", MainConsumer, "kgo.MetadataMinAge", "1s"},
		{"retry.backoff.ms=250\n", Producer, "kgo.MetadataMinAge", "250ms"},
		{"metadata.max.age.ms=7200000\n", Admin, "kgo.MetadataMaxAge", "1h0m0s"},
		{"request.timeout.ms=5000\n", MainConsumer, "kgo.RequestTimeoutOverhead", "5s"},
		{"producer.request.timeout.ms=5000\n", Producer, "kgo.ProduceRequestTimeout", "5s"},
		{"retry.backoff.ms=50\nretry.backoff.max.ms=800\n", Admin, "kgo.RetryBackoffFn", "exponential 50ms to 800ms, 20% jitter"},
		{"socket.connection.setup.timeout.ms=3000\n", Admin, "kgo.DialTimeout", "3s"},
		{"receive.buffer.bytes=262144\n", Admin, "socket receive buffer", "262144 bytes"},
		{"send.buffer.bytes=262144\n", Admin, "socket send buffer", "262144 bytes"},
		{"enable.metrics.push=false\n", Producer, "kgo.DisableClientMetrics", "true"},
		{"main.consumer.group.instance.id=pod-0\n", MainConsumer, "kgo.InstanceID", "pod-0-1"},
		{"main.consumer.max.poll.records=77\n", MainConsumer, "PollRecords", "77"},
		{"consumer.max.poll.interval.ms=60000\n", MainConsumer, "kgo.RebalanceTimeout", "1m0s"},
		{"consumer.session.timeout.ms=10000\n", MainConsumer, "kgo.SessionTimeout", "10s"},
		{"consumer.heartbeat.interval.ms=1000\n", MainConsumer, "kgo.HeartbeatInterval", "1s"},
		{"consumer.client.rack=eu-west-1a\n", MainConsumer, "kgo.Rack", "eu-west-1a"},
		{"consumer.max.partition.fetch.bytes=2048\n", RestoreConsumer, "kgo.FetchMaxPartitionBytes", "2048"},
		{"consumer.fetch.min.bytes=10\n", MainConsumer, "kgo.FetchMinBytes", "10"},
		{"consumer.fetch.max.bytes=4096\n", MainConsumer, "kgo.FetchMaxBytes", "4096"},
		{"", MainConsumer, "kgo.FetchMaxBytes", "1048576"},
		{"main.consumer.max.partition.fetch.bytes=4194304\n", MainConsumer, "kgo.FetchMaxBytes", "4194304"},
		{"main.consumer.fetch.max.wait.ms=20\n", MainConsumer, "kgo.FetchMaxWait", "20ms"},
		{"consumer.auto.offset.reset=latest\n", MainConsumer, "kgo.ConsumeResetOffset", "end"},
		{"consumer.check.crcs=false\n", MainConsumer, "kgo.DisableFetchCRCValidation", "true"},
		{"main.consumer.isolation.level=read_committed\n", MainConsumer, "kgo.FetchIsolationLevel", "read_committed"},
		{"producer.acks=1\nproducer.enable.idempotence=false\n", Producer, "kgo.RequiredAcks", "leader"},
		{"producer.acks=0\n", Producer, "kgo.DisableIdempotentWrite", "true"},
		{"producer.buffer.memory=1048576\n", Producer, "kgo.MaxBufferedBytes", "1048576"},
		{"producer.compression.type=zstd\nproducer.compression.zstd.level=9\n", Producer, "kgo.ProducerBatchCompression", "zstd level 9"},
		{"producer.compression.type=gzip\nproducer.compression.gzip.level=2\n", Producer, "kgo.ProducerBatchCompression", "gzip level 2"},
		{"producer.compression.type=lz4\nproducer.compression.lz4.level=12\n", Producer, "kgo.ProducerBatchCompression", "lz4 level 12"},
		{"producer.compression.type=snappy\n", Producer, "kgo.ProducerBatchCompression", "snappy"},
		{"producer.delivery.timeout.ms=60000\n", Producer, "kgo.RecordDeliveryTimeout", "none (franz-go would measure it from the record's event time)"},
		{"producer.linger.ms=5\n", Producer, "kgo.ProducerLinger", "5ms"},
		{"producer.linger.ms=120000\n", Producer, "kgo.ProducerLinger", "1m0s"},
		{"producer.batch.size=32768\n", Producer, "send a partition at batch.size bytes", "32768"},
		{"producer.enable.idempotence=false\nproducer.max.in.flight.requests.per.connection=2\n", Producer, "kgo.MaxProduceRequestsInflightPerBroker", "2"},
		{"producer.max.request.size=2097152\n", Producer, "kgo.ProducerBatchMaxBytes", "2097152"},
		{"producer.retries=3\n", Producer, "kgo.RecordRetries", "3"},
		{"admin.retries=3\n", Admin, "kgo.RequestRetries", "3"},
		{eos + "producer.transaction.timeout.ms=20000\n", Producer, "kgo.TransactionTimeout", "20s"},
		{eos, Producer, "kgo.TransactionalID", "app-pid-1"},
		{eos, MainConsumer, "require_stable offset fetches", "true"},
		{eos, RestoreConsumer, "kgo.FetchIsolationLevel", "read_committed"},
		{"", MainConsumer, "kgo.ConsumerGroup", "app"},
		{"client.id=me\n", RestoreConsumer, "kgo.ClientID", "me-StreamThread-1-restore-consumer"},
	}
	for _, tc := range cases {
		c, diags := load(t, base+tc.src)
		if diags.HasErrors() {
			t.Errorf("%q: %v", tc.src, diags.Errors())
			continue
		}
		o := c.ClientOptions(tc.kind, "pid", 1)
		found := false
		for _, op := range o.Options {
			if op.Option == tc.option {
				found = true
				if op.Value != tc.value {
					t.Errorf("%q: %s = %q, want %q", tc.src, op.Option, op.Value, tc.value)
				}
				fromSrc := tc.option == "kgo.SeedBrokers" || tc.src == "" || strings.HasPrefix(tc.src, "processing.guarantee")
				for _, line := range strings.Split(strings.TrimSpace(tc.src), "\n") {
					key, _, _ := strings.Cut(line, "=")
					fromSrc = fromSrc || strings.Contains(op.From, key)
				}
				if !fromSrc {
					t.Errorf("%q: %s comes from %q", tc.src, op.Option, op.From)
				}
			}
		}
		if !found {
			var b strings.Builder
			o.WriteTo(&b)
			t.Errorf("%q: no %s in\n%s", tc.src, tc.option, b.String())
		}
		if _, err := o.Opts(); err != nil {
			t.Errorf("%q: %v", tc.src, err)
		}
	}
}

// TestKgoDefaultsFollowTheJavaClients pins the defaults where franz-go's own
// differ from the Java clients' (fetch wait, rebalance timeout, compression,
// delivery timeout) and Kafka Streams' overrides.
func TestKgoDefaultsFollowTheJavaClients(t *testing.T) {
	c, diags := load(t, base)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	want := map[ClientKind]map[string]string{
		MainConsumer:    {"kgo.FetchMaxWait": "500ms", "kgo.RebalanceTimeout": "5m0s", "kgo.ConsumeResetOffset": "start", "PollRecords": "1000", "kgo.DisableAutoCommit": "true", "kgo.InstanceID": c.StaticMemberName() + "-1"},
		RestoreConsumer: {"kgo.FetchMaxWait": "50ms", "kgo.ConsumeResetOffset": "none (an out-of-range offset is an error)"},
		Producer:        {"kgo.ProducerBatchCompression": "none", "kgo.RecordDeliveryTimeout": "none (franz-go would measure it from the record's event time)", "kgo.ProducerLinger": "100ms", "kgo.RequiredAcks": "all", "idempotent writes": "true"},
	}
	for kind, opts := range want {
		got := map[string]string{}
		for _, o := range c.ClientOptions(kind, "pid", 1).Options {
			got[o.Option] = o.Value
		}
		for k, v := range opts {
			if got[k] != v {
				t.Errorf("%s %s = %q, want %q", kind, k, got[k], v)
			}
		}
		for _, absent := range []string{"kgo.DialTLSConfig", "kgo.SASL", "kgo.TransactionalID"} {
			if _, ok := got[absent]; ok {
				t.Errorf("%s has %s by default", kind, absent)
			}
		}
	}
	c, _ = load(t, base+"processing.guarantee=exactly_once_v2\n")
	for _, o := range c.ClientOptions(Producer, "pid", 2).Options {
		switch o.Option {
		case "kgo.TransactionTimeout":
			if o.Value != "10s" {
				t.Errorf("EOS transaction timeout %s", o.Value)
			}
		case "kgo.RecordDeliveryTimeout":
			if o.Value != "none (franz-go would measure it from the record's event time)" {
				t.Errorf("EOS delivery timeout %s", o.Value)
			}
		case "kgo.TransactionalID":
			if o.Value != "app-pid-2" {
				t.Errorf("transactional id %s", o.Value)
			}
		case "kgo.DisableIdempotentWrite":
			t.Error("EOS producer is not idempotent")
		}
	}
}

// TestSecurityThatCannotBeHonouredIsAnError: a client never falls back to a
// plaintext or unauthenticated connection.
func TestSecurityThatCannotBeHonouredIsAnError(t *testing.T) {
	scram := "sasl.mechanism=SCRAM-SHA-256\nsasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" password=\"p\";\n"
	cases := []struct{ src, key, msg string }{
		{"security.protocol=SASL_SSL\n", "security.protocol", "sasl.jaas.config is not set"},
		{"security.protocol=SASL_SSL\n" + scram[strings.Index(scram, "sasl.jaas"):], "sasl.jaas.config", "but sasl.mechanism = GSSAPI (the Java default when it is not set) needs Krb5LoginModule"},
		{"security.protocol=SASL_PLAINTEXT\nsasl.mechanism=GSSAPI\nsasl.jaas.config=com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true keyTab=\"/k\" principal=\"p@R\";\n", "sasl.jaas.config", "needs sasl.kerberos.service.name"},
		{"security.protocol=SASL_PLAINTEXT\nsasl.mechanism=GSSAPI\nsasl.kerberos.service.name=kafka\nsasl.jaas.config=com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true principal=\"p@R\";\n", "sasl.jaas.config", "needs keyTab and principal"},
		{"security.protocol=SASL_PLAINTEXT\nsasl.mechanism=GSSAPI\nsasl.kerberos.service.name=kafka\nsasl.jaas.config=com.sun.security.auth.module.Krb5LoginModule required;\n", "sasl.jaas.config", "would prompt for a password"},
		{"security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\nsasl.jaas.config=com.sun.security.auth.module.Krb5LoginModule required;\n", "sasl.jaas.config", "uses Krb5LoginModule, but sasl.mechanism = PLAIN"},
		{"security.protocol=SASL_PLAINTEXT\nsasl.mechanism=AWS_MSK_IAM\nsasl.jaas.config=software.amazon.msk.auth.iam.IAMLoginModule required;\n", "sasl.mechanism", "sasl.mechanism = AWS_MSK_IAM is not a SASL mechanism"},
		{"security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n", "security.protocol", "sasl.jaas.config is not set"},
		{"security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\nsasl.jaas.config=com.acme.LoginModule required;\n", "sasl.jaas.config", "login module com.acme.LoginModule cannot give"},
		{"security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required password=\"p\";\n", "sasl.jaas.config", "has no username"},
		{"security.protocol=SASL_PLAINTEXT\nsasl.mechanism=OAUTHBEARER\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\";\n", "sasl.jaas.config", "needs OAuthBearerLoginModule"},
		{"security.protocol=SASL_PLAINTEXT\nsasl.mechanism=OAUTHBEARER\nsasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;\n", "sasl.jaas.config", "needs unsecuredLoginStringClaim_sub"},
		{"security.protocol=SASL_PLAINTEXT\nsasl.mechanism=OAUTHBEARER\nsasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;\nsasl.oauthbearer.token.endpoint.url=https://idp/token\n", "sasl.oauthbearer.token.endpoint.url", "client id or secret of the client_credentials grant is missing"},
		{"security.protocol=SASL_PLAINTEXT\nsasl.mechanism=OAUTHBEARER\nsasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;\nsasl.oauthbearer.token.endpoint.url=ftp://idp/token\n", "sasl.oauthbearer.token.endpoint.url", "the ftp scheme is not supported"},
		{"security.protocol=SASL_SSL\n" + scram + "sasl.login.callback.handler.class=com.acme.Handler\n", "sasl.login.callback.handler.class", "names a Java class"},
		{"security.protocol=SSL\nssl.endpoint.identification.algorithm=ldap\n", "ssl.endpoint.identification.algorithm", "is not an endpoint identification algorithm"},
		{"security.protocol=SSL\nssl.protocol=SSLv3\n", "ssl.protocol", "ssl.protocol = SSLv3 is not a TLS version Go speaks"},
		{"security.protocol=SSL\nssl.enabled.protocols=TLSv1.3\nssl.protocol=TLSv1.2\n", "ssl.enabled.protocols", "enables no version allowed by ssl.protocol = TLSv1.2"},
		{"security.protocol=SSL\nssl.cipher.suites=ECDHE-RSA-AES128-GCM-SHA256\n", "ssl.cipher.suites", "a cipher suite Go does not have"},
		{"security.protocol=SSL\nssl.keystore.type=BCFKS\nssl.keystore.location=/k.bcfks\n", "ssl.keystore.type", "ssl.keystore.type = BCFKS is not a store type"},
		{"security.protocol=SSL\nssl.truststore.type=PKCS11\nssl.truststore.location=/t\n", "ssl.truststore.type", "ssl.truststore.type = PKCS11 is not a store type"},
		{"security.protocol=SSL\nssl.keystore.key=-----BEGIN PRIVATE KEY-----\n", "ssl.keystore.key", "without ssl.keystore.certificate.chain"},
		{"security.protocol=SSL\nssl.truststore.certificates=x\nssl.truststore.location=/t.jks\n", "ssl.truststore.location", "are both set"},
		{"security.protocol=SSL\nssl.engine.factory.class=com.acme.Engine\n", "ssl.engine.factory.class", "names a Java class"},
	}
	for _, tc := range cases {
		c, diags := load(t, base+tc.src)
		found := false
		for _, d := range diags.Errors() {
			if d.Key == tc.key && strings.Contains(d.Message, tc.msg) {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: no error on %s containing %q; got %v", tc.src, tc.key, tc.msg, diags)
		}
		if c != nil && !diags.HasErrors() {
			t.Errorf("%q: loads without errors", tc.src)
		}
	}
}

func TestSecurityKeysUnusedByTheProtocolAreWarnings(t *testing.T) {
	_, diags := load(t, base+"ssl.truststore.location=/t.jks\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"p\";\n")
	if diags.HasErrors() || len(diags) != 2 {
		t.Fatalf("%v", diags)
	}
	for _, d := range diags {
		if !strings.Contains(d.Message, "is ignored: security.protocol = PLAINTEXT uses no") {
			t.Errorf("%v", d)
		}
	}
	_, diags = load(t, base+"security.protocol=SSL\nssl.cipher.suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256\n")
	if len(diags) != 1 || diags[0].Severity != SeverityWarning || !strings.Contains(diags[0].Message, "TLS 1.2 only") {
		t.Errorf("cipher suites under TLS 1.3: %v", diags)
	}
	_, diags = load(t, base+"security.protocol=SSL\nssl.protocol=TLSv1.2\nssl.cipher.suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256\n")
	if len(diags) != 0 {
		t.Errorf("cipher suites under TLS 1.2: %v", diags)
	}
}

func saslOption(t *testing.T, src string) ClientOption {
	t.Helper()
	c, diags := load(t, base+src)
	if diags.HasErrors() {
		t.Fatal(diags.Errors())
	}
	for _, o := range c.ClientOptions(Admin, "pid", 0).Options {
		if o.Option == "kgo.SASL" {
			return o
		}
	}
	t.Fatalf("no kgo.SASL option for %q", src)
	return ClientOption{}
}

func TestUnsecuredJWTIsKafkasDefaultLoginToken(t *testing.T) {
	o := saslOption(t, "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=OAUTHBEARER\n"+
		"sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required unsecuredLoginStringClaim_sub=\"alice\" unsecuredLoginListClaim_scope=\",read,write\" unsecuredLoginLifetimeSeconds=\"60\" unsecuredLoginExtension_tenant=\"t1\";\n")
	if o.Value != "OAUTHBEARER unsecured JWT (Kafka's default login handler), sub=alice" {
		t.Errorf("printed %q", o.Value)
	}
	j, err := parseJAAS(`x required unsecuredLoginStringClaim_sub="alice" unsecuredLoginListClaim_scope=",read,write" unsecuredLoginLifetimeSeconds="60";`)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := newUnsecuredJWT(j.opts)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1700000000, 0)
	parts := strings.Split(tok.token(now), ".")
	if len(parts) != 3 || parts[2] != "" {
		t.Fatalf("token %q is not an unsigned JWT", tok.token(now))
	}
	var header map[string]string
	var claims map[string]any
	for i, out := range []any{&header, &claims} {
		b, err := base64.RawURLEncoding.DecodeString(parts[i])
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatal(err)
		}
	}
	if header["alg"] != "none" || claims["sub"] != "alice" || claims["iat"] != 1700000000.0 || claims["exp"] != 1700000060.0 {
		t.Errorf("header %v claims %v", header, claims)
	}
	if s, _ := claims["scope"].([]any); len(s) != 2 || s[0] != "read" || s[1] != "write" {
		t.Errorf("scope %v", claims["scope"])
	}
}

func TestOAuthClientCredentialsGrant(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		id, secret, ok := r.BasicAuth()
		if err := r.ParseForm(); err != nil || !ok || id != "svc" || secret != "s3cret" || r.Form.Get("grant_type") != "client_credentials" || r.Form.Get("scope") != "kafka" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"access_token":"tok-1","token_type":"bearer","expires_in":3600}`))
	}))
	defer srv.Close()
	src := "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=OAUTHBEARER\nsasl.oauthbearer.token.endpoint.url=" + srv.URL + "/token\n" +
		"sasl.login.callback.handler.class=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler\n" +
		"sasl.oauthbearer.client.credentials.client.id=svc\nsasl.oauthbearer.client.credentials.client.secret=s3cret\nsasl.oauthbearer.scope=kafka\n" +
		"sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;\n"
	o := saslOption(t, src)
	if strings.Contains(o.Value, "s3cret") || !strings.Contains(o.Value, "client id svc, secret [hidden], scope kafka") {
		t.Errorf("printed %q", o.Value)
	}
	cc := &clientCredentials{endpoint: srv.URL + "/token", clientID: "svc", secret: "s3cret", scope: "kafka", timeout: 5 * time.Second}
	for range 3 {
		a, err := cc.auth(context.Background())
		if err != nil || a.Token != "tok-1" {
			t.Fatalf("token %q %v", a.Token, err)
		}
	}
	if calls.Load() != 1 {
		t.Errorf("%d token requests for three connections; the token must be kept until it is due", calls.Load())
	}
	bad := &clientCredentials{endpoint: srv.URL + "/token", clientID: "svc", secret: "wrong", timeout: 5 * time.Second}
	if _, err := bad.auth(context.Background()); err == nil || strings.Contains(err.Error(), "wrong") || !strings.Contains(err.Error(), "401") {
		t.Errorf("a refused secret: %v", err)
	}
}

func TestOAuthTokenFromFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "token")
	os.WriteFile(f, []byte("file-token\n"), 0o600)
	o := saslOption(t, "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=OAUTHBEARER\nsasl.oauthbearer.token.endpoint.url=file://"+f+"\n"+
		"sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;\n")
	if o.Value != "OAUTHBEARER token read from "+f+" on each connection" {
		t.Errorf("printed %q", o.Value)
	}
	if _, err := o.build(); err != nil {
		t.Fatal(err)
	}
}

// TestPrintedOptionsHideSecrets: no password, key or token reaches the printer.
func TestPrintedOptionsHideSecrets(t *testing.T) {
	c, diags := load(t, base+"security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\n"+
		"sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"Pl41n-Secret\";\n"+
		"ssl.keystore.key=-----BEGIN PRIVATE KEY-----Key-Secret\nssl.keystore.certificate.chain=-----BEGIN CERTIFICATE-----Chain\nssl.key.password=Key-Pass-Secret\n"+
		"ssl.truststore.certificates=-----BEGIN CERTIFICATE-----Trust\n")
	if diags.HasErrors() {
		t.Fatal(diags.Errors())
	}
	var b strings.Builder
	c.WriteClientConfigs(&b, "pid")
	for _, s := range []string{"Pl41n-Secret", "Key-Secret", "Key-Pass-Secret"} {
		if strings.Contains(b.String(), s) {
			t.Errorf("%s printed:\n%s", s, b.String())
		}
	}
	if !strings.Contains(b.String(), "kgo.SASL = PLAIN user u password [hidden]  (sasl.mechanism, sasl.jaas.config)") {
		t.Errorf("no SASL line:\n%s", b.String())
	}
}

// TestMainConsumerRackIsTheConsumersClientRack: the rack a stream thread
// reports in its group subscription is its main consumer's client.rack,
// with the prefixes' precedence.
func TestMainConsumerRackIsTheConsumersClientRack(t *testing.T) {
	for src, want := range map[string]string{
		base:                                   "",
		base + "client.rack=rack-a\n":          "rack-a",
		base + "consumer.client.rack=rack-b\n": "rack-b",
		base + "consumer.client.rack=rack-b\nmain.consumer.client.rack=rack-c\n": "rack-c",
	} {
		c, diags := load(t, src)
		if err := diags.Err(); err != nil {
			t.Fatal(err)
		}
		if got := c.MainConsumerRack(); got != want {
			t.Errorf("%q: MainConsumerRack %q, want %q", src, got, want)
		}
	}
}
