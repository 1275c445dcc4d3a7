package compat

import "strings"

// serdeEncodingKeys are the keys Kafka's StringSerde and UUIDSerde read in
// configure(). Kafka Streams configures its default serdes with the whole
// application config, so in a Streams .properties file these keys change how
// default.key.serde and default.value.serde read and write text. StoatFlow's
// built-in serdes speak UTF-8 only.
var serdeEncodingKeys = map[string]bool{
	"key.serializer.encoding":     true,
	"value.serializer.encoding":   true,
	"serializer.encoding":         true,
	"key.deserializer.encoding":   true,
	"value.deserializer.encoding": true,
	"deserializer.encoding":       true,
}

// isUTF8Charset reports whether Java's Charset.forName(name) is UTF-8: the
// canonical name and its aliases, in any case.
func isUTF8Charset(name string) bool {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "utf-8", "utf8", "unicode-1-1-utf-8":
		return true
	}
	return false
}

// serdeEncoding checks a serde encoding key: UTF-8 is what StoatFlow's
// serdes do anyway; any other charset would make Kafka Streams write other
// bytes, so it is an error.
func (l *loader) serdeEncoding(key, value string) {
	if isUTF8Charset(value) {
		return
	}
	l.errorf(key, "remove it or set it to UTF-8; for another charset give the topology a Go Serde in code",
		"%s=%s would make Kafka Streams' default String and UUID serdes use %s; StoatFlow's built-in serdes read and write UTF-8 only",
		key, value, value)
}
