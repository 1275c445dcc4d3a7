// Package properties loads Java .properties files exactly as java.util.Properties
// reads them, keeping each key's file and line, layers several files and --set
// overrides, and resolves Kafka config-provider references such as ${env:NAME}.
package properties
