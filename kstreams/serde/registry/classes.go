package registry

import (
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Classes binds the Java classes a JVM application's configuration names
// as the type of its Protobuf and JSON Schema values (Confluent's
// specific.protobuf.value.type, json.value.type and their key twins) to Go
// types, so that the application's .properties file runs unchanged. A
// program builds one and gives it to the configuration loader
// (compat.WithSchemaClasses, or sidecar.WithSchemaClasses); nothing binds a
// class by being imported. The zero value binds none: Protobuf classes are
// then found only among the generated packages linked into the program.
type Classes struct {
	// Protobuf maps a Java class's binary name, as Class.forName takes it
	// (com.acme.Clicks$Click), to a Go message type. A message of a
	// generated Go package that is linked into the program needs no entry
	// when its file's java_package, java_outer_classname and
	// java_multiple_files options yield the class: ProtobufTypeByClass
	// finds it.
	Protobuf map[string]protoreflect.MessageType
	// JSONSchema maps a Java class name to the Go type a
	// KafkaJsonSchemaSerde configured with it reads and writes, as
	// NewJSONSchema[T] does: JSONSchemaOf[T]().
	JSONSchema map[string]JSONSchemaType
}

// JSONSchemaType is a Go type a JSON Schema serde reads and writes, for
// Classes.JSONSchema. Make one with JSONSchemaOf.
type JSONSchemaType struct {
	goType string
	build  func(schemaregistry.Client, SerdeConfig) (serde.Untyped, error)
}

// JSONSchemaOf returns the Go type T for Classes.JSONSchema. T must not be
// an interface type: the schema is derived from it (Classes.Validate
// reports one).
func JSONSchemaOf[T any]() JSONSchemaType {
	return JSONSchemaType{goType: fmt.Sprintf("%T", *new(T)), build: func(cl schemaregistry.Client, cfg SerdeConfig) (serde.Untyped, error) {
		j, err := NewJSONSchema[T](cl, cfg)
		if err != nil {
			return nil, err
		}
		return serde.Erase[T](j), nil
	}}
}

// String returns the Go type's name.
func (t JSONSchemaType) String() string { return t.goType }

// Validate reports an empty class name, a nil message type, or a JSON
// Schema binding that JSONSchemaOf did not make or that names an interface
// type: mistakes in the program.
func (c Classes) Validate() error {
	for _, javaClass := range slices.Sorted(maps.Keys(c.Protobuf)) {
		if strings.TrimSpace(javaClass) == "" {
			return errors.New("registry: a Protobuf class binding needs a Java class name")
		}
		if c.Protobuf[javaClass] == nil {
			return fmt.Errorf("registry: Java class %s is bound to a nil Protobuf message type", javaClass)
		}
	}
	for _, javaClass := range slices.Sorted(maps.Keys(c.JSONSchema)) {
		if err := c.jsonSchemaType(javaClass); err != nil {
			return err
		}
	}
	return nil
}

// jsonSchemaType checks one JSON Schema binding.
func (c Classes) jsonSchemaType(javaClass string) error {
	t := c.JSONSchema[javaClass]
	switch {
	case strings.TrimSpace(javaClass) == "":
		return errors.New("registry: a JSON Schema class binding needs a Java class name")
	case t.build == nil:
		return fmt.Errorf("registry: Java class %s: bind a Go type with registry.JSONSchemaOf[YourType]()", javaClass)
	case t.goType == "<nil>":
		return fmt.Errorf("registry: Java class %s: an interface type cannot be bound (its schema cannot be derived)", javaClass)
	}
	return nil
}

// ProtobufTypeByClass returns the Go message type of the Java class
// javaClass: the one c.Protobuf binds it to, or else the message of the
// program's Protobuf registry (protoregistry.GlobalTypes, where generated
// packages register their messages) for which protoc's Java generator
// makes that class.
func (c Classes) ProtobufTypeByClass(javaClass string) (protoreflect.MessageType, error) {
	if mt := c.Protobuf[javaClass]; mt != nil {
		return mt, nil
	}
	want := strings.ReplaceAll(javaClass, "$", ".")
	var found protoreflect.MessageType
	protoregistry.GlobalTypes.RangeMessages(func(t protoreflect.MessageType) bool {
		if strings.ReplaceAll(JavaClassName(t.Descriptor()), "$", ".") == want {
			found = t
			return false
		}
		return true
	})
	if found == nil {
		return nil, fmt.Errorf("registry: no Go Protobuf message is the Java class %s: link in the Go package generated from its .proto file "+
			"(its java_package, java_outer_classname and java_multiple_files options make the Java name), or bind one in registry.Classes.Protobuf", javaClass)
	}
	return found, nil
}

// JavaClassName returns the binary name of the Java class protoc's Java
// generator makes for md: java_package (else the proto package), then,
// unless java_multiple_files is set, the outer class (java_outer_classname,
// else the file name in camel case, with "OuterClass" appended when a
// top-level type has that name), then the enclosing messages, joined by $.
func JavaClassName(md protoreflect.MessageDescriptor) string {
	fd := md.ParentFile()
	var opts *descriptorpb.FileOptions
	if o, ok := fd.Options().(*descriptorpb.FileOptions); ok && o != nil {
		opts = o
	}
	pkg := string(fd.Package())
	if opts.GetJavaPackage() != "" {
		pkg = opts.GetJavaPackage()
	}
	var nesting []string
	for d := protoreflect.Descriptor(md); d != nil; d = d.Parent() {
		if m, ok := d.(protoreflect.MessageDescriptor); ok {
			nesting = append([]string{string(m.Name())}, nesting...)
		}
	}
	if !opts.GetJavaMultipleFiles() {
		nesting = append([]string{javaOuterClassName(fd, opts)}, nesting...)
	}
	name := strings.Join(nesting, "$")
	if pkg != "" {
		name = pkg + "." + name
	}
	return name
}

// javaOuterClassName is the outer class of a file's Java code.
func javaOuterClassName(fd protoreflect.FileDescriptor, opts *descriptorpb.FileOptions) string {
	if opts.GetJavaOuterClassname() != "" {
		return opts.GetJavaOuterClassname()
	}
	base := strings.TrimSuffix(path.Base(fd.Path()), ".proto")
	var b strings.Builder
	upper := true
	for _, r := range base {
		switch {
		case unicode.IsLetter(r):
			if upper {
				r = unicode.ToUpper(r)
			}
			b.WriteRune(r)
			upper = false
		case unicode.IsDigit(r):
			b.WriteRune(r)
			upper = true
		default:
			upper = true
		}
	}
	outer := b.String()
	conflict := false
	for i := 0; i < fd.Messages().Len(); i++ {
		conflict = conflict || string(fd.Messages().Get(i).Name()) == outer
	}
	for i := 0; i < fd.Enums().Len(); i++ {
		conflict = conflict || string(fd.Enums().Get(i).Name()) == outer
	}
	for i := 0; i < fd.Services().Len(); i++ {
		conflict = conflict || string(fd.Services().Get(i).Name()) == outer
	}
	if conflict {
		outer += "OuterClass"
	}
	return outer
}

// NewProtobufOfClass returns the Protobuf serde (KafkaProtobufSerde) of the
// Java class javaClass, as specific.protobuf.key.type or
// specific.protobuf.value.type names it; its values are proto.Message of the
// class's Go type (ProtobufTypeByClass). An empty javaClass returns the
// serde that reads each record into the Go type registered under the full
// name of the message its schema and message indexes name (Confluent's
// derive.type).
func (c Classes) NewProtobufOfClass(client schemaregistry.Client, cfg SerdeConfig, javaClass string) (serde.Untyped, error) {
	if javaClass == "" {
		p, err := newProtobuf[proto.Message](client, cfg, nil)
		if err != nil {
			return nil, err
		}
		return serde.Erase[proto.Message](p), nil
	}
	mt, err := c.ProtobufTypeByClass(javaClass)
	if err != nil {
		return nil, err
	}
	p, err := NewProtobuf(client, cfg, func() proto.Message { return mt.New().Interface() })
	if err != nil {
		return nil, err
	}
	return serde.Erase[proto.Message](p), nil
}

// JSONSchemaClasses returns the Java class names c.JSONSchema binds,
// sorted.
func (c Classes) JSONSchemaClasses() []string {
	return slices.Sorted(maps.Keys(c.JSONSchema))
}

// CheckJSONSchemaClass reports whether c binds javaClass to a Go type.
func (c Classes) CheckJSONSchemaClass(javaClass string) error {
	if _, ok := c.JSONSchema[javaClass]; !ok {
		return fmt.Errorf("registry: no Go type is bound to the Java class %s: bind one in registry.Classes.JSONSchema: %q: registry.JSONSchemaOf[YourType]()", javaClass, javaClass)
	}
	return c.jsonSchemaType(javaClass)
}

// NewJSONSchemaOfClass returns the JSON Schema serde (KafkaJsonSchemaSerde)
// of the Go type c.JSONSchema binds javaClass to.
func (c Classes) NewJSONSchemaOfClass(client schemaregistry.Client, cfg SerdeConfig, javaClass string) (serde.Untyped, error) {
	if err := c.CheckJSONSchemaClass(javaClass); err != nil {
		return nil, err
	}
	return c.JSONSchema[javaClass].build(client, cfg)
}
