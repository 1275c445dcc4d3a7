package registry

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry"
)

// ClientConfig says how to reach a schema registry: Confluent's
// schema.registry.url, basic.auth.* and schema.registry.ssl.* settings.
type ClientConfig struct {
	// URL is schema.registry.url, the registry's base URL (for Apicurio
	// Registry, its /apis/ccompat/v7 path). Required.
	URL string
	// BasicAuthCredentialsSource is basic.auth.credentials.source: "" (no
	// basic authentication), "USER_INFO" (BasicAuthUserInfo) or "URL" (the
	// user info embedded in URL).
	BasicAuthCredentialsSource string
	// BasicAuthUserInfo is basic.auth.user.info, "user:password". A secret:
	// String never shows it.
	BasicAuthUserInfo string
	// SSLCALocation is the PEM file of the certificate authorities that sign
	// the registry's certificate (schema.registry.ssl.truststore.location,
	// when it is a PEM file); empty uses the system's.
	SSLCALocation string
	// SSLCertificateLocation and SSLKeyLocation are the client certificate
	// and key PEM files for mutual TLS; both or neither.
	SSLCertificateLocation, SSLKeyLocation string
	// SSLDisableEndpointVerification skips the check of the registry's host
	// name against its certificate
	// (schema.registry.ssl.endpoint.identification.algorithm set to "").
	SSLDisableEndpointVerification bool
	// RequestTimeout bounds each registry request (default 10s).
	RequestTimeout time.Duration
	// TLS, when set, is the TLS configuration of https connections; it
	// takes the place of the SSL*Location fields.
	TLS *tls.Config
}

// String prints the configuration without its secrets.
func (c ClientConfig) String() string {
	info := ""
	if c.BasicAuthUserInfo != "" {
		info = " basic.auth.user.info=[hidden]"
	}
	return fmt.Sprintf("registry %s (basic.auth.credentials.source=%q%s)", redactURL(c.URL), c.BasicAuthCredentialsSource, info)
}

// redactURL hides the password of a URL's user info.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

// Validate reports the first setting that cannot work, naming its Confluent key.
func (c ClientConfig) Validate() error {
	if strings.TrimSpace(c.URL) == "" {
		return errors.New("registry: schema.registry.url is required")
	}
	if strings.Contains(c.URL, ",") {
		return fmt.Errorf("registry: schema.registry.url lists several URLs (%s); StoatFlow takes one registry URL", redactURL(c.URL))
	}
	u, err := url.Parse(c.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("registry: schema.registry.url %q is not an http:// or https:// URL", redactURL(c.URL))
	}
	switch c.BasicAuthCredentialsSource {
	case "":
	case "USER_INFO":
		if !strings.Contains(c.BasicAuthUserInfo, ":") {
			return errors.New("registry: basic.auth.credentials.source=USER_INFO needs basic.auth.user.info as user:password")
		}
	case "URL":
		if u.User == nil {
			return errors.New("registry: basic.auth.credentials.source=URL needs the user info in schema.registry.url (https://user:password@host)")
		}
	default:
		return fmt.Errorf("registry: basic.auth.credentials.source %q is not USER_INFO or URL", c.BasicAuthCredentialsSource)
	}
	if (c.SSLCertificateLocation == "") != (c.SSLKeyLocation == "") {
		return errors.New("registry: a client certificate needs both its certificate and its key")
	}
	if c.RequestTimeout < 0 {
		return fmt.Errorf("registry: request timeout %v is negative", c.RequestTimeout)
	}
	return nil
}

// NewClient returns a schema registry client with a cache of the schemas and
// ids it has seen, as Confluent's CachedSchemaRegistryClient keeps.
func NewClient(c ClientConfig) (schemaregistry.Client, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	conf := schemaregistry.NewConfig(c.URL)
	conf.BasicAuthCredentialsSource = c.BasicAuthCredentialsSource
	conf.BasicAuthUserInfo = c.BasicAuthUserInfo
	conf.SslCaLocation = c.SSLCALocation
	conf.SslCertificateLocation = c.SSLCertificateLocation
	conf.SslKeyLocation = c.SSLKeyLocation
	conf.SslDisableEndpointVerification = c.SSLDisableEndpointVerification
	if c.RequestTimeout > 0 {
		conf.RequestTimeoutMs = int(c.RequestTimeout / time.Millisecond)
		conf.ConnectionTimeoutMs = conf.RequestTimeoutMs
	}
	if c.TLS != nil {
		timeout := time.Duration(conf.RequestTimeoutMs) * time.Millisecond
		conf.HTTPClient = &http.Client{Timeout: timeout, Transport: &http.Transport{
			TLSClientConfig: c.TLS, Proxy: http.ProxyFromEnvironment, MaxIdleConnsPerHost: 4,
		}}
	}
	cl, err := schemaregistry.NewClient(conf)
	if err != nil {
		return nil, fmt.Errorf("registry: client for %s: %w", redactURL(c.URL), err)
	}
	return cl, nil
}

// SubjectNameStrategy picks the subject a schema is registered under:
// Confluent's key.subject.name.strategy and value.subject.name.strategy.
type SubjectNameStrategy int

// The subject name strategies of Confluent's serdes.
const (
	// TopicNameStrategy: "<topic>-key" or "<topic>-value" (the default).
	TopicNameStrategy SubjectNameStrategy = iota
	// RecordNameStrategy: the record's full name, whatever the topic.
	RecordNameStrategy
	// TopicRecordNameStrategy: "<topic>-<record full name>".
	TopicRecordNameStrategy
)

// Java class names of the subject name strategies.
const (
	ClassTopicNameStrategy       = "io.confluent.kafka.serializers.subject.TopicNameStrategy"
	ClassRecordNameStrategy      = "io.confluent.kafka.serializers.subject.RecordNameStrategy"
	ClassTopicRecordNameStrategy = "io.confluent.kafka.serializers.subject.TopicRecordNameStrategy"
)

// String returns the strategy's Java class name.
func (s SubjectNameStrategy) String() string {
	switch s {
	case RecordNameStrategy:
		return ClassRecordNameStrategy
	case TopicRecordNameStrategy:
		return ClassTopicRecordNameStrategy
	}
	return ClassTopicNameStrategy
}

// ParseSubjectNameStrategy returns the strategy a Java class name names.
func ParseSubjectNameStrategy(class string) (SubjectNameStrategy, error) {
	switch class {
	case ClassTopicNameStrategy:
		return TopicNameStrategy, nil
	case ClassRecordNameStrategy:
		return RecordNameStrategy, nil
	case ClassTopicRecordNameStrategy:
		return TopicRecordNameStrategy, nil
	}
	return 0, fmt.Errorf("registry: %s is not a subject name strategy StoatFlow knows (%s, %s or %s)",
		class, ClassTopicNameStrategy, ClassRecordNameStrategy, ClassTopicRecordNameStrategy)
}

// subject returns the subject for a record of fullName (the record's
// namespace-qualified name, empty for a schema that is not a named type).
func (s SubjectNameStrategy) subject(topic string, isKey bool, fullName string) (string, error) {
	switch s {
	case TopicNameStrategy:
		if isKey {
			return topic + "-key", nil
		}
		return topic + "-value", nil
	case RecordNameStrategy, TopicRecordNameStrategy:
		if fullName == "" {
			return "", fmt.Errorf("registry: %s needs a named schema (a record, enum or fixed)", s)
		}
		if s == RecordNameStrategy {
			return fullName, nil
		}
		return topic + "-" + fullName, nil
	}
	return "", fmt.Errorf("registry: unknown subject name strategy %d", int(s))
}

// SerdeConfig holds a serde's Confluent settings.
type SerdeConfig struct {
	// IsKey says the serde is for record keys, whose subjects end in "-key".
	IsKey bool
	// AutoRegisterSchemas is auto.register.schemas (default true: use
	// DefaultSerdeConfig): register the serde's schema when it is new.
	// Otherwise the schema must already be registered under its subject.
	AutoRegisterSchemas bool
	// UseLatestVersion is use.latest.version: serialize with the latest
	// schema of the subject and deserialize into it. As in Confluent's
	// serdes, auto.register.schemas=true takes precedence when writing.
	UseLatestVersion bool
	// NormalizeSchemas is normalize.schemas: the registry normalizes the
	// schema before it registers or looks it up.
	NormalizeSchemas bool
	// SubjectNameStrategy is key.subject.name.strategy or
	// value.subject.name.strategy.
	SubjectNameStrategy SubjectNameStrategy
}

// DefaultSerdeConfig returns Confluent's defaults: auto.register.schemas=true,
// use.latest.version=false, normalize.schemas=false, TopicNameStrategy.
func DefaultSerdeConfig(isKey bool) SerdeConfig {
	return SerdeConfig{IsKey: isKey, AutoRegisterSchemas: true}
}
