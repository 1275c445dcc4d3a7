package registry_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/stoatflow/stoatflow/internal/testregistry"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/kstreams/serde/registry"
)

// fileWith builds a file at path of package pkg with the top-level messages
// names (the first with a nested message Detail) and the given options.
func fileWith(t *testing.T, path, pkg string, opts *descriptorpb.FileOptions, names ...string) protoreflect.FileDescriptor {
	t.Helper()
	str := descriptorpb.FieldDescriptorProto_TYPE_STRING
	opt := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL
	fdp := &descriptorpb.FileDescriptorProto{Name: proto.String(path), Package: proto.String(pkg), Syntax: proto.String("proto3"), Options: opts}
	for i, n := range names {
		m := &descriptorpb.DescriptorProto{Name: proto.String(n), Field: []*descriptorpb.FieldDescriptorProto{
			{Name: proto.String("user"), Number: proto.Int32(1), Type: &str, Label: &opt, JsonName: proto.String("user")}}}
		if i == 0 {
			m.NestedType = []*descriptorpb.DescriptorProto{{Name: proto.String("Detail")}}
		}
		fdp.MessageType = append(fdp.MessageType, m)
	}
	f, err := protodesc.NewFile(fdp, nil)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestJavaClassNameFollowsProtocJavaGenerator: the Java binary names protoc
// gives messages, under each combination of the file options.
func TestJavaClassNameFollowsProtocJavaGenerator(t *testing.T) {
	for _, tc := range []struct {
		name   string
		file   protoreflect.FileDescriptor
		want   string // of the first message
		nested string // of its Detail
	}{
		{"no options", fileWith(t, "acme/click_events.proto", "acme.events", nil, "Click"),
			"acme.events.ClickEvents$Click", "acme.events.ClickEvents$Click$Detail"},
		{"java_package", fileWith(t, "clicks.proto", "acme", &descriptorpb.FileOptions{JavaPackage: proto.String("com.acme.proto")}, "Click"),
			"com.acme.proto.Clicks$Click", "com.acme.proto.Clicks$Click$Detail"},
		{"outer class name", fileWith(t, "clicks.proto", "acme", &descriptorpb.FileOptions{JavaOuterClassname: proto.String("ClickProtos")}, "Click"),
			"acme.ClickProtos$Click", "acme.ClickProtos$Click$Detail"},
		{"multiple files", fileWith(t, "clicks.proto", "acme", &descriptorpb.FileOptions{JavaPackage: proto.String("com.acme"), JavaMultipleFiles: proto.Bool(true)}, "Click"),
			"com.acme.Click", "com.acme.Click$Detail"},
		{"outer class clashes with a message", fileWith(t, "click.proto", "acme", nil, "Click"),
			"acme.ClickOuterClass$Click", "acme.ClickOuterClass$Click$Detail"},
		{"digits and underscores", fileWith(t, "v2_data9x.proto", "", nil, "Event"),
			"V2Data9X$Event", "V2Data9X$Event$Detail"},
	} {
		md := tc.file.Messages().Get(0)
		if got := registry.JavaClassName(md); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
		if got := registry.JavaClassName(md.Messages().ByName("Detail")); got != tc.nested {
			t.Errorf("%s nested: %s, want %s", tc.name, got, tc.nested)
		}
	}
}

// TestProtobufOfClassThroughRegistry: a Java class name finds the Go type of
// the program's registry (no binding) or the one Classes bind it to, and
// only in those Classes; an
// unknown name says what to do; the serde without a class reads each record
// into the type its schema names.
func TestProtobufOfClassThroughRegistry(t *testing.T) {
	pkg := strings.ReplaceAll(testregistry.Name(t, "io.stoatflow.cls"), "-", "_")
	f := fileWith(t, pkg+"/orders.proto", pkg, &descriptorpb.FileOptions{JavaPackage: proto.String("com.acme.orders")}, "Order", "Refund")
	if err := protoregistry.GlobalFiles.RegisterFile(f); err != nil {
		t.Fatal(err)
	}
	order, refund := dynamicpb.NewMessageType(f.Messages().Get(0)), dynamicpb.NewMessageType(f.Messages().Get(1))
	for _, mt := range []protoreflect.MessageType{order, refund} {
		if err := protoregistry.GlobalTypes.RegisterMessage(mt); err != nil {
			t.Fatal(err)
		}
	}
	var none registry.Classes
	mt, err := none.ProtobufTypeByClass("com.acme.orders.Orders$Refund")
	if err != nil || mt.Descriptor().FullName() != refund.Descriptor().FullName() {
		t.Fatalf("by generated name: %v, %v", mt, err)
	}
	bound := registry.Classes{Protobuf: map[string]protoreflect.MessageType{"com.acme.legacy.RefundEvent": refund}}
	if mt, err := bound.ProtobufTypeByClass("com.acme.legacy.RefundEvent"); err != nil || mt != refund {
		t.Fatalf("bound: %v, %v", mt, err)
	}
	if _, err := none.ProtobufTypeByClass("com.acme.legacy.RefundEvent"); err == nil {
		t.Fatal("a class bound in other Classes was found")
	}
	if _, err := none.ProtobufTypeByClass("com.acme.orders.Orders$Missing"); err == nil ||
		!strings.Contains(err.Error(), "registry.Classes.Protobuf") || !strings.Contains(err.Error(), "com.acme.orders.Orders$Missing") {
		t.Fatalf("unknown class: %v", err)
	}
	if err := (registry.Classes{Protobuf: map[string]protoreflect.MessageType{"com.acme.Nil": nil}}).Validate(); err == nil {
		t.Fatal("a nil message type was accepted")
	}

	cl := testregistry.Client(t)
	topic := testregistry.Name(t, "refunds")
	typed, err := bound.NewProtobufOfClass(cl, registry.DefaultSerdeConfig(false), "com.acme.orders.Orders$Refund")
	if err != nil {
		t.Fatal(err)
	}
	m := refund.New()
	m.Set(refund.Descriptor().Fields().ByName("user"), protoreflect.ValueOfString("u"))
	b, err := typed.SerializeAny(topic, m.Interface())
	if err != nil {
		t.Fatal(err)
	}
	// Refund is the file's second message: indexes [1], zigzag 02 02.
	if want := []byte{0x02, 0x02, 0x0a, 0x01, 'u'}; !bytes.Equal(b[5:], want) {
		t.Fatalf("payload % x, want % x", b[5:], want)
	}
	derived, err := none.NewProtobufOfClass(cl, registry.DefaultSerdeConfig(false), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []serde.Untyped{typed, derived} {
		v, err := s.DeserializeAny(topic, b)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := v.(proto.Message)
		if !ok || !proto.Equal(got, m.Interface()) || got.ProtoReflect().Descriptor().FullName() != refund.Descriptor().FullName() {
			t.Fatalf("read %v (%T), want %v", v, v, m)
		}
	}

	// A record whose message no Go type is registered for names its schema
	// id and what to link in.
	other := fileWith(t, pkg+"/unlinked.proto", pkg+".unlinked", nil, "Ghost")
	ghost := dynamicpb.NewMessage(other.Messages().Get(0))
	gs, err := registry.NewProtobuf(cl, registry.DefaultSerdeConfig(false), func() *dynamicpb.Message { return dynamicpb.NewMessage(other.Messages().Get(0)) })
	if err != nil {
		t.Fatal(err)
	}
	gb, err := gs.Serialize(topic+"-ghost", ghost)
	if err != nil {
		t.Fatal(err)
	}
	_, err = derived.DeserializeAny(topic+"-ghost", gb)
	var we *registry.WireError
	if !errors.As(err, &we) || we.SchemaID != schemaID(t, gb) || !strings.Contains(err.Error(), "link in the Go package generated") {
		t.Fatalf("unregistered message: %v", err)
	}
}

type invoice struct {
	Number string `json:"number"`
	Amount int64  `json:"amount"`
}

// TestJSONSchemaOfClass: a Java class bound to a Go type builds its serde;
// an unbound one says how to bind it.
func TestJSONSchemaOfClass(t *testing.T) {
	const cls = "com.acme.billing.Invoice"
	classes := registry.Classes{JSONSchema: map[string]registry.JSONSchemaType{cls: registry.JSONSchemaOf[invoice]()}}
	if err := classes.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := classes.JSONSchemaClasses(); len(got) != 1 || got[0] != cls {
		t.Fatalf("classes %v", got)
	}
	if err := (registry.Classes{JSONSchema: map[string]registry.JSONSchemaType{"com.acme.Any": registry.JSONSchemaOf[any]()}}).Validate(); err == nil {
		t.Fatal("an interface type was accepted")
	}
	if err := (registry.Classes{JSONSchema: map[string]registry.JSONSchemaType{"com.acme.Zero": {}}}).Validate(); err == nil {
		t.Fatal("a zero JSONSchemaType was accepted")
	}
	if err := classes.CheckJSONSchemaClass("com.acme.Unbound"); err == nil || !strings.Contains(err.Error(), `"com.acme.Unbound": registry.JSONSchemaOf[YourType]()`) {
		t.Fatalf("unbound: %v", err)
	}
	cl := testregistry.Client(t)
	topic := testregistry.Name(t, "invoices")
	s, err := classes.NewJSONSchemaOfClass(cl, registry.DefaultSerdeConfig(false), cls)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.SerializeAny(topic, invoice{Number: "i-1", Amount: 12})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b[5:]); got != `{"number":"i-1","amount":12}` {
		t.Fatalf("payload %s", got)
	}
	v, err := s.DeserializeAny(topic, b)
	if err != nil || v != (invoice{Number: "i-1", Amount: 12}) {
		t.Fatalf("read %v (%T), %v", v, v, err)
	}
}
