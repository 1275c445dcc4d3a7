// Package properties loads Java .properties files exactly as java.util.Properties
// reads them, keeping each key's file and line, layers several files and --set
// overrides, and resolves Kafka config-provider references such as ${env:NAME}.
//
// The reader is written here, following java.util.Properties.load rule by rule,
// so that a file means exactly what it means to the JVM application and every key
// keeps the file and line it was read from for error messages.
package properties
