package compat

import (
	"crypto/tls"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry"

	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/kstreams/serde/registry"
)

// The Confluent Schema Registry serdes, named by their Kafka Streams classes
// in default.key.serde and default.value.serde.
const (
	// SerdeSpecificAvro is SpecificAvroSerde. A Go program has no generated
	// Java class, so its values are registry.GenericRecord, as
	// GenericAvroSerde's.
	SerdeSpecificAvro Serde = 100 + iota
	// SerdeGenericAvro is GenericAvroSerde (values: registry.GenericRecord).
	SerdeGenericAvro
	// SerdePrimitiveAvro is PrimitiveAvroSerde (values: Go string, int32,
	// int64, float32, float64, bool or []byte).
	SerdePrimitiveAvro
	// SerdeProtobuf is KafkaProtobufSerde (values: proto.Message of the Go
	// type bound to specific.protobuf.key.type or
	// specific.protobuf.value.type, or else of the type registered under the
	// full name of each record's message).
	SerdeProtobuf
	// SerdeJSONSchema is KafkaJsonSchemaSerde (values: the Go type
	// json.key.type or json.value.type names, bound in the registry.Classes
	// given to Load with WithSchemaClasses).
	SerdeJSONSchema
)

// Java class names of Confluent's Kafka Streams serdes.
const (
	ClassSpecificAvroSerde    = "io.confluent.kafka.streams.serdes.avro.SpecificAvroSerde"
	ClassGenericAvroSerde     = "io.confluent.kafka.streams.serdes.avro.GenericAvroSerde"
	ClassPrimitiveAvroSerde   = "io.confluent.kafka.streams.serdes.avro.PrimitiveAvroSerde"
	ClassKafkaProtobufSerde   = "io.confluent.kafka.streams.serdes.protobuf.KafkaProtobufSerde"
	ClassKafkaJSONSchemaSerde = "io.confluent.kafka.streams.serdes.json.KafkaJsonSchemaSerde"
)

// IsSchemaRegistry reports whether the serde is one of the Schema Registry
// serdes, built from Config.SchemaRegistry.
func (s Serde) IsSchemaRegistry() bool {
	return s == SerdeSpecificAvro || s == SerdeGenericAvro || s == SerdePrimitiveAvro || s == SerdeProtobuf || s == SerdeJSONSchema
}

// Confluent's serde keys, read from the same .properties file: Kafka
// Streams hands its whole configuration to the default serdes' configure().
const (
	SchemaRegistryURLConfig          = "schema.registry.url"
	BasicAuthCredentialsSourceConfig = "basic.auth.credentials.source"
	BasicAuthUserInfoConfig          = "basic.auth.user.info"
	AutoRegisterSchemasConfig        = "auto.register.schemas"
	UseLatestVersionConfig           = "use.latest.version"
	NormalizeSchemasConfig           = "normalize.schemas"
	KeySubjectNameStrategyConfig     = "key.subject.name.strategy"
	ValueSubjectNameStrategyConfig   = "value.subject.name.strategy"
	// The message classes of KafkaProtobufSerde and whether, without one,
	// it derives the type from the record's schema.
	SpecificProtobufKeyTypeConfig   = "specific.protobuf.key.type"
	SpecificProtobufValueTypeConfig = "specific.protobuf.value.type"
	DeriveTypeConfig                = "derive.type"
	// The value classes of KafkaJsonSchemaSerde.
	JSONKeyTypeConfig   = "json.key.type"
	JSONValueTypeConfig = "json.value.type"
	// registrySSLPrefix opens the registry client's ssl.* keys, as in
	// Confluent's schema.registry.ssl.truststore.location.
	registrySSLPrefix = "schema.registry."
)

// registryKeys are the Confluent keys StoatFlow reads, with Confluent's types
// and defaults.
var registryKeys = []*Key{
	{Name: SchemaRegistryURLConfig, Type: TypeString, NullDefault: true,
		Doc: "URL of the schema registry the Confluent serdes use (one URL)."},
	{Name: BasicAuthCredentialsSourceConfig, Type: TypeString, Default: "URL",
		Validator: ValidString{Values: []string{"URL", "USER_INFO", "SASL_INHERIT"}},
		Doc:       "Where the registry's basic authentication credentials come from: URL (user info in schema.registry.url, if any) or USER_INFO (basic.auth.user.info)."},
	{Name: BasicAuthUserInfoConfig, Type: TypePassword, Default: "",
		Doc: "user:password for the registry when basic.auth.credentials.source=USER_INFO. A secret: never printed."},
	{Name: "schema.registry.basic.auth.user.info", Type: TypePassword, Default: "",
		Doc: "Confluent's older name for basic.auth.user.info."},
	{Name: AutoRegisterSchemasConfig, Type: TypeBoolean, Default: "true",
		Doc: "Register a value's schema under its subject when it is new."},
	{Name: UseLatestVersionConfig, Type: TypeBoolean, Default: "false",
		Doc: "Write and read with the subject's latest schema (when auto.register.schemas=false)."},
	{Name: NormalizeSchemasConfig, Type: TypeBoolean, Default: "false",
		Doc: "Have the registry normalize schemas before registering or looking them up."},
	{Name: KeySubjectNameStrategyConfig, Type: TypeClass, Default: registry.ClassTopicNameStrategy,
		Doc: "Subject name strategy of record keys."},
	{Name: ValueSubjectNameStrategyConfig, Type: TypeClass, Default: registry.ClassTopicNameStrategy,
		Doc: "Subject name strategy of record values."},
	{Name: SpecificProtobufKeyTypeConfig, Type: TypeClass, NullDefault: true,
		Doc: "Java class of the Protobuf keys KafkaProtobufSerde reads: a Go message whose generated Java class it is, or one bound in the program's registry.Classes."},
	{Name: SpecificProtobufValueTypeConfig, Type: TypeClass, NullDefault: true,
		Doc: "Java class of the Protobuf values KafkaProtobufSerde reads: a Go message whose generated Java class it is, or one bound in the program's registry.Classes."},
	{Name: DeriveTypeConfig, Type: TypeBoolean, Default: "false",
		Doc: "Without a specific.protobuf type, read each record into the type named by its schema. StoatFlow does so in any case: a Go program has no DynamicMessage."},
	{Name: JSONKeyTypeConfig, Type: TypeClass, NullDefault: true,
		Doc: "Java class of the keys KafkaJsonSchemaSerde reads and writes, bound to a Go type in the program's registry.Classes."},
	{Name: JSONValueTypeConfig, Type: TypeClass, NullDefault: true,
		Doc: "Java class of the values KafkaJsonSchemaSerde reads and writes, bound to a Go type in the program's registry.Classes."},
	{Name: registrySSLPrefix + "ssl.truststore.location", Type: TypeString, NullDefault: true,
		Doc: "Trust store (JKS, PKCS12 or PEM) for the registry's certificate."},
	{Name: registrySSLPrefix + "ssl.truststore.password", Type: TypePassword, NullDefault: true,
		Doc: "Password of the registry trust store."},
	{Name: registrySSLPrefix + "ssl.truststore.type", Type: TypeString, Default: "JKS",
		Validator: CaseInsensitiveValidString{Values: []string{"JKS", "PKCS12", "PEM"}},
		Doc:       "Type of the registry trust store."},
	{Name: registrySSLPrefix + "ssl.keystore.location", Type: TypeString, NullDefault: true,
		Doc: "Key store (JKS, PKCS12 or PEM) with the client certificate for the registry."},
	{Name: registrySSLPrefix + "ssl.keystore.password", Type: TypePassword, NullDefault: true,
		Doc: "Password of the registry key store."},
	{Name: registrySSLPrefix + "ssl.keystore.type", Type: TypeString, Default: "JKS",
		Validator: CaseInsensitiveValidString{Values: []string{"JKS", "PKCS12", "PEM"}},
		Doc:       "Type of the registry key store."},
	{Name: registrySSLPrefix + "ssl.key.password", Type: TypePassword, NullDefault: true,
		Doc: "Password of the private key in the registry key store."},
	{Name: registrySSLPrefix + "ssl.endpoint.identification.algorithm", Type: TypeString, Default: "https",
		Doc: "https checks the registry's host name against its certificate; empty skips that check."},
}

var registryIndex = indexKeys(registryKeys)

// isRegistryKey reports whether key is one of Confluent's serde keys.
func isRegistryKey(key string) bool {
	_, ok := registryIndex[key]
	return ok
}

// SchemaRegistryConfig is the Confluent serdes' configuration, read from
// Confluent's keys in the application's .properties file.
type SchemaRegistryConfig struct {
	// URL is schema.registry.url (default unset; required by the Schema
	// Registry serdes).
	URL string
	// BasicAuthCredentialsSource is basic.auth.credentials.source (default
	// URL: the user info of URL, if it has one).
	BasicAuthCredentialsSource string
	// BasicAuthUserInfo is basic.auth.user.info (or
	// schema.registry.basic.auth.user.info), a secret.
	BasicAuthUserInfo Secret
	// AutoRegisterSchemas is auto.register.schemas (default true).
	AutoRegisterSchemas bool
	// UseLatestVersion is use.latest.version (default false).
	UseLatestVersion bool
	// NormalizeSchemas is normalize.schemas (default false).
	NormalizeSchemas bool
	// KeySubjectNameStrategy and ValueSubjectNameStrategy are
	// key.subject.name.strategy and value.subject.name.strategy (default
	// TopicNameStrategy).
	KeySubjectNameStrategy, ValueSubjectNameStrategy registry.SubjectNameStrategy
	// KeyProtobufClass and ValueProtobufClass are specific.protobuf.key.type
	// and specific.protobuf.value.type: Java class names bound to Go
	// messages (empty: the type each record's schema names).
	KeyProtobufClass, ValueProtobufClass string
	// KeyJSONClass and ValueJSONClass are json.key.type and
	// json.value.type: Java class names bound to Go types.
	KeyJSONClass, ValueJSONClass string

	tls *tlsSpec // nil without schema.registry.ssl.* keys and an http URL
	// classes are the bindings the configuration was loaded with
	// (WithSchemaClasses), which NewSerde builds the class serdes from.
	classes registry.Classes
}

// String prints the registry settings without the secret.
func (c SchemaRegistryConfig) String() string {
	return fmt.Sprintf("%s=%s %s=%s %s=%s", SchemaRegistryURLConfig, registryURLRedacted(c.URL),
		BasicAuthCredentialsSourceConfig, c.BasicAuthCredentialsSource, BasicAuthUserInfoConfig, c.BasicAuthUserInfo)
}

// GoString is String, keeping the secret out of %#v.
func (c SchemaRegistryConfig) GoString() string { return c.String() }

func registryURLRedacted(u string) string {
	return strings.TrimPrefix(registry.ClientConfig{URL: u}.String(), "registry ")
}

// ClientConfig returns the registry client's configuration, reading the
// trust and key stores.
func (c SchemaRegistryConfig) ClientConfig() (registry.ClientConfig, error) {
	cc := registry.ClientConfig{URL: c.URL}
	switch c.BasicAuthCredentialsSource {
	case "USER_INFO":
		cc.BasicAuthCredentialsSource = "USER_INFO"
		cc.BasicAuthUserInfo = c.BasicAuthUserInfo.Value()
	case "URL", "":
		// Confluent's default source: the URL's user info, when it has one.
		if u, err := url.Parse(c.URL); err == nil && u.User != nil {
			cc.BasicAuthCredentialsSource = "URL"
		}
	}
	if c.tls != nil {
		tc, err := c.tls.config()
		if err != nil {
			return cc, fmt.Errorf("compat: schema registry TLS: %w", err)
		}
		cc.TLS = tc
	}
	return cc, nil
}

// SerdeConfig returns the settings of the key (isKey) or value serde.
func (c SchemaRegistryConfig) SerdeConfig(isKey bool) registry.SerdeConfig {
	s := registry.SerdeConfig{IsKey: isKey, AutoRegisterSchemas: c.AutoRegisterSchemas,
		UseLatestVersion: c.UseLatestVersion, NormalizeSchemas: c.NormalizeSchemas,
		SubjectNameStrategy: c.ValueSubjectNameStrategy}
	if isKey {
		s.SubjectNameStrategy = c.KeySubjectNameStrategy
	}
	return s
}

// schemaRegistry reads Confluent's keys into c.SchemaRegistry and checks
// them against the default serdes that need them.
func (l *loader) schemaRegistry(c *Config) {
	for _, k := range registryKeys {
		l.parseKey(k, k.Name)
	}
	v := l.values
	r := &c.SchemaRegistry
	r.URL = strings.TrimSpace(v[SchemaRegistryURLConfig].Str)
	r.BasicAuthCredentialsSource = v[BasicAuthCredentialsSourceConfig].Str
	info := v[BasicAuthUserInfoConfig].Str
	infoKey := BasicAuthUserInfoConfig
	if info == "" && v["schema.registry.basic.auth.user.info"].Str != "" {
		info, infoKey = v["schema.registry.basic.auth.user.info"].Str, "schema.registry.basic.auth.user.info"
	}
	r.BasicAuthUserInfo = NewSecret(info)
	r.classes = l.opts.schemaClasses
	r.AutoRegisterSchemas = v[AutoRegisterSchemasConfig].Bool
	r.UseLatestVersion = v[UseLatestVersionConfig].Bool
	r.NormalizeSchemas = v[NormalizeSchemasConfig].Bool
	for _, s := range []struct {
		key string
		dst *registry.SubjectNameStrategy
	}{{KeySubjectNameStrategyConfig, &r.KeySubjectNameStrategy}, {ValueSubjectNameStrategyConfig, &r.ValueSubjectNameStrategy}} {
		if l.bad[s.key] {
			continue
		}
		st, err := registry.ParseSubjectNameStrategy(v[s.key].Str)
		if err != nil {
			l.errorf(s.key, "use TopicNameStrategy, RecordNameStrategy or TopicRecordNameStrategy of io.confluent.kafka.serializers.subject",
				"%s = %s names a subject name strategy with no Go equivalent", s.key, v[s.key].Str)
			continue
		}
		*s.dst = st
	}

	// The serdes that need a registry, and the ones StoatFlow lacks.
	var users []string
	for _, key := range []string{DefaultKeySerdeConfig, DefaultValueSerdeConfig} {
		isKey := key == DefaultKeySerdeConfig
		switch cls := v[key].Str; cls {
		case ClassKafkaProtobufSerde:
			users = append(users, key)
			l.protobufClass(key, isKey, r)
		case ClassKafkaJSONSchemaSerde:
			users = append(users, key)
			l.jsonClass(key, isKey, r)
		case ClassSpecificAvroSerde, ClassGenericAvroSerde, ClassPrimitiveAvroSerde:
			users = append(users, key)
		}
	}
	if len(users) == 0 {
		return
	}
	if r.URL == "" {
		for _, key := range users {
			l.errorf(key, "add schema.registry.url=http(s)://host:port of the registry to the file",
				"%s = %s needs %s, which is not set", key, v[key].Str, SchemaRegistryURLConfig)
		}
		return
	}
	if r.BasicAuthCredentialsSource == "SASL_INHERIT" {
		l.errorf(BasicAuthCredentialsSourceConfig, "use USER_INFO with basic.auth.user.info, or URL",
			"%s = SASL_INHERIT is not supported: StoatFlow does not pass the Kafka SASL credentials to the schema registry", BasicAuthCredentialsSourceConfig)
	}
	cc, _ := SchemaRegistryConfig{URL: r.URL, BasicAuthCredentialsSource: r.BasicAuthCredentialsSource, BasicAuthUserInfo: r.BasicAuthUserInfo}.ClientConfig()
	if err := cc.Validate(); err != nil {
		key := SchemaRegistryURLConfig
		if strings.Contains(err.Error(), "basic.auth") {
			key = BasicAuthCredentialsSourceConfig
			if r.BasicAuthCredentialsSource == "USER_INFO" && info != "" {
				key = infoKey
			}
		}
		// The validation messages name keys, never the user info.
		l.errorf(key, "fix the registry settings", "%s", strings.TrimPrefix(err.Error(), "registry: "))
	}
	if r.BasicAuthCredentialsSource == "USER_INFO" && info == "" {
		l.errorf(BasicAuthCredentialsSourceConfig, "add basic.auth.user.info=user:password",
			"%s = USER_INFO needs %s", BasicAuthCredentialsSourceConfig, BasicAuthUserInfoConfig)
	}
	if r.UseLatestVersion && r.AutoRegisterSchemas && l.given(UseLatestVersionConfig) {
		l.warnf(UseLatestVersionConfig, "set auto.register.schemas=false to write with the latest schema",
			"%s = true has no effect on writing while %s = true, as in Confluent's serializers", UseLatestVersionConfig, AutoRegisterSchemasConfig)
	}
	r.tls = l.registryTLS()
	l.tlsFiles(r.tls, registrySSLPrefix+"ssl.truststore.location", registrySSLPrefix+"ssl.keystore.location")
}

// protobufClass checks the message class of KafkaProtobufSerde, named by
// the default serde key serdeKey.
func (l *loader) protobufClass(serdeKey string, isKey bool, r *SchemaRegistryConfig) {
	typeKey, dst := SpecificProtobufValueTypeConfig, &r.ValueProtobufClass
	if isKey {
		typeKey, dst = SpecificProtobufKeyTypeConfig, &r.KeyProtobufClass
	}
	cls := strings.TrimSpace(l.values[typeKey].Str)
	if cls == "" || l.bad[typeKey] {
		return
	}
	if _, err := l.opts.schemaClasses.ProtobufTypeByClass(cls); err != nil {
		l.errorf(typeKey, "link in the Go package generated from the class's .proto file, or bind the class in the registry.Classes given to sidecar.WithSchemaClasses",
			"%s = %s (for %s = %s) names no Go Protobuf message: %s", typeKey, cls, serdeKey, ClassKafkaProtobufSerde,
			strings.TrimPrefix(err.Error(), "registry: "))
		return
	}
	*dst = cls
}

// jsonClass checks the value class of KafkaJsonSchemaSerde, named by the
// default serde key serdeKey.
func (l *loader) jsonClass(serdeKey string, isKey bool, r *SchemaRegistryConfig) {
	typeKey, dst := JSONValueTypeConfig, &r.ValueJSONClass
	if isKey {
		typeKey, dst = JSONKeyTypeConfig, &r.KeyJSONClass
	}
	if l.bad[typeKey] {
		return
	}
	cls := strings.TrimSpace(l.values[typeKey].Str)
	if cls == "" {
		l.errorf(serdeKey, "add "+typeKey+"=<the Java class of the values> and bind it to a Go type in the registry.Classes given to sidecar.WithSchemaClasses",
			"%s = %s needs %s: a Go program reads JSON into a type, and the schema is derived from it", serdeKey, ClassKafkaJSONSchemaSerde, typeKey)
		return
	}
	if err := l.opts.schemaClasses.CheckJSONSchemaClass(cls); err != nil {
		hint := "bind the class in the registry.Classes given to sidecar.WithSchemaClasses: JSONSchema: {\"" + cls + "\": registry.JSONSchemaOf[YourType]()}"
		if known := l.opts.schemaClasses.JSONSchemaClasses(); len(known) > 0 {
			hint += "; bound classes: " + strings.Join(known, ", ")
		}
		l.errorf(typeKey, hint, "%s = %s (for %s = %s) is bound to no Go type", typeKey, cls, serdeKey, ClassKafkaJSONSchemaSerde)
		return
	}
	*dst = cls
}

// NewSerde builds the Schema Registry serde s for keys (isKey) or values
// on client: the Protobuf and JSON Schema serdes of the classes this
// configuration names, bound by the registry.Classes it was loaded with.
func (c SchemaRegistryConfig) NewSerde(s Serde, isKey bool, client schemaregistry.Client) (serde.Untyped, error) {
	sc := c.SerdeConfig(isKey)
	switch s {
	case SerdeProtobuf:
		cls := c.ValueProtobufClass
		if isKey {
			cls = c.KeyProtobufClass
		}
		return c.classes.NewProtobufOfClass(client, sc, cls)
	case SerdeJSONSchema:
		cls := c.ValueJSONClass
		if isKey {
			cls = c.KeyJSONClass
		}
		return c.classes.NewJSONSchemaOfClass(client, sc, cls)
	}
	return nil, fmt.Errorf("compat: %s is not built by SchemaRegistryConfig.NewSerde", s)
}

// registryTLS reads the schema.registry.ssl.* keys; nil when none is given.
func (l *loader) registryTLS() *tlsSpec {
	v := l.values
	p := registrySSLPrefix
	given := false
	for _, k := range registryKeys {
		if strings.HasPrefix(k.Name, p+"ssl.") && l.given(k.Name) {
			given = true
		}
	}
	if !given {
		return nil
	}
	return &tlsSpec{
		trustType:        strings.ToUpper(v[p+"ssl.truststore.type"].Str),
		trustLocation:    v[p+"ssl.truststore.location"].Str,
		trustPassword:    v[p+"ssl.truststore.password"].Str,
		keyType:          strings.ToUpper(v[p+"ssl.keystore.type"].Str),
		keyLocation:      v[p+"ssl.keystore.location"].Str,
		keyStorePassword: v[p+"ssl.keystore.password"].Str,
		keyPassword:      v[p+"ssl.key.password"].Str,
		verifyHostname:   v[p+"ssl.endpoint.identification.algorithm"].Str != "",
		minVersion:       tls.VersionTLS12,
	}
}

// UsesSchemaRegistry reports whether a default serde is a Schema Registry
// serde, so that the registry settings matter.
func (c *Config) UsesSchemaRegistry() bool {
	return c.DefaultKeySerde.IsSchemaRegistry() || c.DefaultValueSerde.IsSchemaRegistry()
}

// WriteSchemaRegistryConfig writes Confluent's serde keys in the format of
// WriteStreamsConfig, under "SchemaRegistryConfig values: ", as Confluent's
// serdes log them. basic.auth.user.info and the store passwords show as
// [hidden].
func (c *Config) WriteSchemaRegistryConfig(w io.Writer) error {
	return writeBlock(w, "SchemaRegistryConfig", registryKeys, c.values, c.invalid)
}
