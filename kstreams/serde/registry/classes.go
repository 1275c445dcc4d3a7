package registry

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// A JVM application names the type of its Protobuf and JSON Schema values by
// a Java class (Confluent's specific.protobuf.value.type, json.value.type);
// these bind such a name to a Go type, so that the application's
// .properties file runs unchanged.

var classes struct {
	sync.RWMutex
	protobuf map[string]protoreflect.MessageType
	json     map[string]jsonClass
}

type jsonClass struct {
	goType string
	build  func(schemaregistry.Client, SerdeConfig) (serde.Untyped, error)
}

// RegisterProtobufClass binds the Java class javaClass (its binary name, as
// Class.forName takes it: com.acme.Clicks$Click) to the Go message type mt.
// A message of a generated Go package that is linked into the program needs
// no registration when its file's java_package, java_outer_classname and
// java_multiple_files options yield javaClass: ProtobufTypeByClass finds it.
func RegisterProtobufClass(javaClass string, mt protoreflect.MessageType) error {
	if strings.TrimSpace(javaClass) == "" || mt == nil {
		return errors.New("registry: RegisterProtobufClass needs a Java class name and a message type")
	}
	classes.Lock()
	defer classes.Unlock()
	if old, ok := classes.protobuf[javaClass]; ok && old.Descriptor().FullName() != mt.Descriptor().FullName() {
		return fmt.Errorf("registry: Java class %s is already bound to Protobuf message %s", javaClass, old.Descriptor().FullName())
	}
	if classes.protobuf == nil {
		classes.protobuf = map[string]protoreflect.MessageType{}
	}
	classes.protobuf[javaClass] = mt
	return nil
}

// ProtobufTypeByClass returns the Go message type of the Java class
// javaClass: the one RegisterProtobufClass bound to it, or else the message
// of the program's Protobuf registry (protoregistry.GlobalTypes, where
// generated packages register their messages) for which protoc's Java
// generator makes that class.
func ProtobufTypeByClass(javaClass string) (protoreflect.MessageType, error) {
	classes.RLock()
	mt, ok := classes.protobuf[javaClass]
	classes.RUnlock()
	if ok {
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
			"(its java_package, java_outer_classname and java_multiple_files options make the Java name), or bind one with registry.RegisterProtobufClass", javaClass)
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
// class's Go type. An empty javaClass returns the serde that reads each
// record into the Go type registered under the full name of the message its
// schema and message indexes name (Confluent's derive.type).
func NewProtobufOfClass(client schemaregistry.Client, cfg SerdeConfig, javaClass string) (serde.Untyped, error) {
	if javaClass == "" {
		p, err := newProtobuf[proto.Message](client, cfg, nil)
		if err != nil {
			return nil, err
		}
		return serde.Erase[proto.Message](p), nil
	}
	mt, err := ProtobufTypeByClass(javaClass)
	if err != nil {
		return nil, err
	}
	p, err := NewProtobuf(client, cfg, func() proto.Message { return mt.New().Interface() })
	if err != nil {
		return nil, err
	}
	return serde.Erase[proto.Message](p), nil
}

// RegisterJSONSchemaClass binds the Java class javaClass (as json.key.type
// or json.value.type names it) to the Go type T: a KafkaJsonSchemaSerde
// configured with that class reads and writes T, as NewJSONSchema[T] does.
func RegisterJSONSchemaClass[T any](javaClass string) error {
	if strings.TrimSpace(javaClass) == "" {
		return errors.New("registry: RegisterJSONSchemaClass needs a Java class name")
	}
	goType := fmt.Sprintf("%T", *new(T))
	if goType == "<nil>" {
		return fmt.Errorf("registry: Java class %s: an interface type cannot be bound (its schema cannot be derived)", javaClass)
	}
	classes.Lock()
	defer classes.Unlock()
	if old, ok := classes.json[javaClass]; ok && old.goType != goType {
		return fmt.Errorf("registry: Java class %s is already bound to Go type %s", javaClass, old.goType)
	}
	if classes.json == nil {
		classes.json = map[string]jsonClass{}
	}
	classes.json[javaClass] = jsonClass{goType: goType, build: func(cl schemaregistry.Client, cfg SerdeConfig) (serde.Untyped, error) {
		j, err := NewJSONSchema[T](cl, cfg)
		if err != nil {
			return nil, err
		}
		return serde.Erase[T](j), nil
	}}
	return nil
}

// JSONSchemaClasses returns the Java class names bound with
// RegisterJSONSchemaClass, sorted.
func JSONSchemaClasses() []string {
	classes.RLock()
	defer classes.RUnlock()
	out := make([]string, 0, len(classes.json))
	for c := range classes.json {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// CheckJSONSchemaClass reports whether javaClass is bound to a Go type.
func CheckJSONSchemaClass(javaClass string) error {
	classes.RLock()
	_, ok := classes.json[javaClass]
	classes.RUnlock()
	if !ok {
		return fmt.Errorf("registry: no Go type is bound to the Java class %s: call registry.RegisterJSONSchemaClass[YourType](%q) in an init function of the program", javaClass, javaClass)
	}
	return nil
}

// NewJSONSchemaOfClass returns the JSON Schema serde (KafkaJsonSchemaSerde)
// of the Go type bound to javaClass with RegisterJSONSchemaClass.
func NewJSONSchemaOfClass(client schemaregistry.Client, cfg SerdeConfig, javaClass string) (serde.Untyped, error) {
	if err := CheckJSONSchemaClass(javaClass); err != nil {
		return nil, err
	}
	classes.RLock()
	c := classes.json[javaClass]
	classes.RUnlock()
	return c.build(client, cfg)
}
