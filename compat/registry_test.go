package compat

import (
	"fmt"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

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
		{"protobuf no url", "default.key.serde=io.confluent.kafka.streams.serdes.protobuf.KafkaProtobufSerde\n", "default.key.serde", "needs schema.registry.url"},
		{"protobuf unknown class", "default.value.serde=io.confluent.kafka.streams.serdes.protobuf.KafkaProtobufSerde\nschema.registry.url=http://a:1\n" +
			"specific.protobuf.value.type=com.acme.Clicks$Missing\n", "specific.protobuf.value.type", "com.acme.Clicks$Missing (for default.value.serde = io.confluent.kafka.streams.serdes.protobuf.KafkaProtobufSerde) names no Go Protobuf message"},
		{"protobuf key class", "default.key.serde=io.confluent.kafka.streams.serdes.protobuf.KafkaProtobufSerde\nschema.registry.url=http://a:1\n" +
			"specific.protobuf.key.type=com.acme.Keys$Missing\n", "specific.protobuf.key.type", "names no Go Protobuf message"},
		{"json schema no url", "default.value.serde=io.confluent.kafka.streams.serdes.json.KafkaJsonSchemaSerde\njson.value.type=" + jsonClass + "\n", "default.value.serde", "needs schema.registry.url"},
		{"json schema no type", "default.value.serde=io.confluent.kafka.streams.serdes.json.KafkaJsonSchemaSerde\nschema.registry.url=http://a:1\n", "default.value.serde", "needs json.value.type"},
		{"json schema unbound type", "default.key.serde=io.confluent.kafka.streams.serdes.json.KafkaJsonSchemaSerde\nschema.registry.url=http://a:1\njson.key.type=com.acme.Unbound\n", "json.key.type", "com.acme.Unbound (for default.key.serde = io.confluent.kafka.streams.serdes.json.KafkaJsonSchemaSerde) is bound to no Go type"},
	} {
		_, diags := load(t, base+tc.src, withInvoice)
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

const jsonClass = "com.acme.billing.Invoice"

type invoice struct {
	Number string `json:"number"`
}

// withInvoice binds jsonClass to invoice.
var withInvoice = WithSchemaClasses(registry.Classes{JSONSchema: map[string]registry.JSONSchemaType{jsonClass: registry.JSONSchemaOf[invoice]()}})

// protoClickType registers a message io.stoatflow.compat.Click in a file
// clicks.proto with java_package com.acme.proto, whose Java class is
// com.acme.proto.Clicks$Click, in the program's Protobuf registry, as a
// linked-in generated package would.
func protoClickType(t *testing.T) {
	t.Helper()
	if _, err := protoregistry.GlobalTypes.FindMessageByName("io.stoatflow.compat.Click"); err == nil {
		return
	}
	str := descriptorpb.FieldDescriptorProto_TYPE_STRING
	opt := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL
	f, err := protodesc.NewFile(&descriptorpb.FileDescriptorProto{
		Name: proto.String("io/stoatflow/compat/clicks.proto"), Package: proto.String("io.stoatflow.compat"), Syntax: proto.String("proto3"),
		Options: &descriptorpb.FileOptions{JavaPackage: proto.String("com.acme.proto")},
		MessageType: []*descriptorpb.DescriptorProto{{Name: proto.String("Click"), Field: []*descriptorpb.FieldDescriptorProto{
			{Name: proto.String("user"), Number: proto.Int32(1), Type: &str, Label: &opt, JsonName: proto.String("user")}}}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := protoregistry.GlobalTypes.RegisterMessage(dynamicpb.NewMessageType(f.Messages().Get(0))); err != nil {
		t.Fatal(err)
	}
}

// TestProtobufAndJSONSchemaSerdesOfAJVMApplication: a file naming
// KafkaProtobufSerde and KafkaJsonSchemaSerde with their classes loads
// without findings and binds the classes; one without a Protobuf class reads
// records into the type their schema names.
func TestProtobufAndJSONSchemaSerdesOfAJVMApplication(t *testing.T) {
	protoClickType(t)
	src := base + `default.key.serde=io.confluent.kafka.streams.serdes.json.KafkaJsonSchemaSerde
json.key.type=` + jsonClass + `
default.value.serde=io.confluent.kafka.streams.serdes.protobuf.KafkaProtobufSerde
specific.protobuf.value.type=com.acme.proto.Clicks$Click
schema.registry.url=http://registry.example:8081
`
	// The class is bound only in the Classes given to Load.
	if _, diags := load(t, src); len(diags.Errors()) != 1 || diags.Errors()[0].Key != JSONKeyTypeConfig {
		t.Fatalf("without the binding: %v, want one error on %s", diags, JSONKeyTypeConfig)
	}
	c, diags := load(t, src, withInvoice)
	if len(diags) != 0 {
		t.Fatalf("findings: %v", diags)
	}
	if c.DefaultKeySerde != SerdeJSONSchema || c.DefaultValueSerde != SerdeProtobuf || !c.UsesSchemaRegistry() {
		t.Fatalf("serdes %v %v", c.DefaultKeySerde, c.DefaultValueSerde)
	}
	r := c.SchemaRegistry
	if r.ValueProtobufClass != "com.acme.proto.Clicks$Click" || r.KeyJSONClass != jsonClass || r.KeyProtobufClass != "" || r.ValueJSONClass != "" {
		t.Fatalf("classes %+v", r)
	}
	if c.DefaultKeySerde.String() != ClassKafkaJSONSchemaSerde || c.DefaultValueSerde.String() != ClassKafkaProtobufSerde {
		t.Fatalf("class names %s %s", c.DefaultKeySerde, c.DefaultValueSerde)
	}
	cl, err := registry.NewClient(registry.ClientConfig{URL: r.URL})
	if err != nil {
		t.Fatal(err)
	}
	for _, isKey := range []bool{true, false} {
		s := c.DefaultValueSerde
		if isKey {
			s = c.DefaultKeySerde
		}
		if u, err := r.NewSerde(s, isKey, cl); err != nil || u == nil {
			t.Errorf("%s (key %v): %v", s, isKey, err)
		}
	}
	if _, err := r.NewSerde(SerdeGenericAvro, false, cl); err == nil {
		t.Error("NewSerde built an Avro serde")
	}

	// derive.type, or no class at all: the serde is built without one.
	c, diags = load(t, base+`default.value.serde=io.confluent.kafka.streams.serdes.protobuf.KafkaProtobufSerde
derive.type=true
schema.registry.url=http://registry.example:8081
`)
	if len(diags) != 0 || c.SchemaRegistry.ValueProtobufClass != "" {
		t.Fatalf("derive.type: %v %+v", diags, c.SchemaRegistry)
	}
	if u, err := c.SchemaRegistry.NewSerde(SerdeProtobuf, false, cl); err != nil || u == nil {
		t.Fatalf("derived serde: %v", err)
	}
}
