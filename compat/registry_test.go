package compat

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams/serde/registry"
)

const registrySecret = "sr-user:S3cr3t-Pa55"

// TestRegistryKeysOfAJVMApplication: a JVM application's file with
// SpecificAvroSerde and Confluent's keys loads without findings, and its
// basic.auth.user.info reaches the client config but no printed form.
func TestRegistryKeysOfAJVMApplication(t *testing.T) {
	c, diags := load(t, base+`default.key.serde=org.apache.kafka.common.serialization.Serdes$StringSerde
default.value.serde=io.confluent.kafka.streams.serdes.avro.SpecificAvroSerde
schema.registry.url=https://registry.example:8081
basic.auth.credentials.source=USER_INFO
basic.auth.user.info=`+registrySecret+`
auto.register.schemas=false
use.latest.version=true
normalize.schemas=true
value.subject.name.strategy=io.confluent.kafka.serializers.subject.TopicRecordNameStrategy
`)
	if len(diags) != 0 {
		t.Fatalf("findings: %v", diags)
	}
	if c.DefaultValueSerde != SerdeSpecificAvro || !c.DefaultValueSerde.IsSchemaRegistry() || c.DefaultKeySerde.IsSchemaRegistry() {
		t.Fatalf("serdes %v %v", c.DefaultKeySerde, c.DefaultValueSerde)
	}
	r := c.SchemaRegistry
	if r.URL != "https://registry.example:8081" || r.AutoRegisterSchemas || !r.UseLatestVersion || !r.NormalizeSchemas ||
		r.ValueSubjectNameStrategy != registry.TopicRecordNameStrategy || r.KeySubjectNameStrategy != registry.TopicNameStrategy {
		t.Fatalf("registry config %+v", r)
	}
	cc, err := r.ClientConfig()
	if err != nil || cc.BasicAuthCredentialsSource != "USER_INFO" || cc.BasicAuthUserInfo != registrySecret {
		t.Fatalf("client config: %v (source %q)", err, cc.BasicAuthCredentialsSource)
	}
	sc := r.SerdeConfig(false)
	if sc.IsKey || sc.AutoRegisterSchemas || !sc.UseLatestVersion || sc.SubjectNameStrategy != registry.TopicRecordNameStrategy {
		t.Fatalf("serde config %+v", sc)
	}
	for _, s := range []string{c.String(), fmt.Sprintf("%v %+v %#v", c, c, *c), r.String(), fmt.Sprintf("%+v %#v", r, r), cc.String()} {
		if strings.Contains(s, "S3cr3t") {
			t.Fatalf("the user info is printed: %s", s)
		}
	}
	var b strings.Builder
	if err := c.WriteClientConfigs(&b, "pid"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "S3cr3t") {
		t.Fatal("the user info reaches the client configs")
	}
}

// TestRegistryKeysBadInputs: each bad registry setting is an error that names
// its key and line.
func TestRegistryKeysBadInputs(t *testing.T) {
	const avro = "default.value.serde=io.confluent.kafka.streams.serdes.avro.GenericAvroSerde\n"
	for _, tc := range []struct {
		name, src, key, want string
	}{
		{"no url", avro, "default.value.serde", "needs schema.registry.url, which is not set"},
		{"bad url", avro + "schema.registry.url=registry:8081\n", "schema.registry.url", "is not an http:// or https:// URL"},
		{"several urls", avro + "schema.registry.url=http://a:1,http://b:1\n", "schema.registry.url", "lists several URLs"},
		{"user info missing", avro + "schema.registry.url=http://a:1\nbasic.auth.credentials.source=USER_INFO\n", "basic.auth.credentials.source", "USER_INFO needs basic.auth.user.info"},
		{"user info malformed", avro + "schema.registry.url=http://a:1\nbasic.auth.credentials.source=USER_INFO\nbasic.auth.user.info=S3cr3t\n", "basic.auth.user.info", "user:password"},
		{"sasl inherit", avro + "schema.registry.url=http://a:1\nbasic.auth.credentials.source=SASL_INHERIT\n", "basic.auth.credentials.source", "SASL_INHERIT is not supported"},
		{"bad source", avro + "schema.registry.url=http://a:1\nbasic.auth.credentials.source=TOKEN\n", "basic.auth.credentials.source", "Invalid value TOKEN for configuration basic.auth.credentials.source"},
		{"bad boolean", avro + "schema.registry.url=http://a:1\nauto.register.schemas=yes\n", "auto.register.schemas", "Invalid value yes for configuration auto.register.schemas"},
		{"bad strategy", avro + "schema.registry.url=http://a:1\nkey.subject.name.strategy=com.acme.Strategy\n", "key.subject.name.strategy", "com.acme.Strategy names a subject name strategy with no Go equivalent"},
		{"protobuf", "default.key.serde=io.confluent.kafka.streams.serdes.protobuf.KafkaProtobufSerde\n", "default.key.serde", "read and write Avro only so far"},
		{"json schema", "default.value.serde=io.confluent.kafka.streams.serdes.json.KafkaJsonSchemaSerde\n", "default.value.serde", "read and write Avro only so far"},
	} {
		_, diags := load(t, base+tc.src)
		found := false
		for _, d := range diags {
			if d.Severity == SeverityError && d.Key == tc.key && strings.Contains(d.Message, tc.want) {
				found = true
				if d.Pos.File != "t.properties" || d.Pos.Line < 3 {
					t.Errorf("%s: position %+v", tc.name, d.Pos)
				}
			}
			if strings.Contains(d.Message+d.Hint, "S3cr3t") {
				t.Errorf("%s: a finding shows the user info: %v", tc.name, d)
			}
		}
		if !found {
			t.Errorf("%s: no error on %s containing %q; got %v", tc.name, tc.key, tc.want, diags)
		}
		if n := strings.Count(diags.Err().Error(), tc.key+" ="); tc.key == "default.key.serde" && n > 1 {
			t.Errorf("%s: reported %d times: %v", tc.name, n, diags)
		}
	}
	// The keys alone, without a registry serde, are accepted quietly: a file
	// may give them for serdes the topology builds in code.
	if _, diags := load(t, base+"schema.registry.url=http://a:1\nauto.register.schemas=false\n"); len(diags) != 0 {
		t.Errorf("keys without a registry serde: %v", diags)
	}
}
