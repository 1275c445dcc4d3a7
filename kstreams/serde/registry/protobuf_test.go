package registry_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/stoatflow/stoatflow/internal/testregistry"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/kstreams/serde/registry"
)

// clickDescriptor is the message Click{string user = 1; int64 n = 2;} of a
// file clicks.proto in package io.stoatflow.test, with a second message
// Page first, so that Click's message index is 1.
func clickDescriptor(t *testing.T, pkg string) protoreflect.MessageDescriptor {
	t.Helper()
	str, i64 := descriptorpb.FieldDescriptorProto_TYPE_STRING, descriptorpb.FieldDescriptorProto_TYPE_INT64
	opt := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL
	fd := &descriptorpb.FileDescriptorProto{
		Name: proto.String(pkg + "/clicks.proto"), Package: proto.String(pkg), Syntax: proto.String("proto3"),
		MessageType: []*descriptorpb.DescriptorProto{
			{Name: proto.String("Page"), Field: []*descriptorpb.FieldDescriptorProto{
				{Name: proto.String("url"), Number: proto.Int32(1), Type: &str, Label: &opt, JsonName: proto.String("url")}}},
			{Name: proto.String("Click"), Field: []*descriptorpb.FieldDescriptorProto{
				{Name: proto.String("user"), Number: proto.Int32(1), Type: &str, Label: &opt, JsonName: proto.String("user")},
				{Name: proto.String("n"), Number: proto.Int32(2), Type: &i64, Label: &opt, JsonName: proto.String("n")}}},
		},
	}
	f, err := protodesc.NewFile(fd, nil)
	if err != nil {
		t.Fatal(err)
	}
	return f.Messages().ByName("Click")
}

func TestProtobufWireFormatWithMessageIndexes(t *testing.T) {
	cl := testregistry.Client(t)
	topic := testregistry.Name(t, "pclicks")
	md := clickDescriptor(t, strings.ReplaceAll(testregistry.Name(t, "io.stoatflow.p"), "-", "_"))
	newClick := func() *dynamicpb.Message { return dynamicpb.NewMessage(md) }
	s, err := registry.NewProtobuf(cl, registry.DefaultSerdeConfig(false), newClick)
	if err != nil {
		t.Fatal(err)
	}
	m := newClick()
	m.Set(md.Fields().ByName("user"), protoreflect.ValueOfString("a"))
	m.Set(md.Fields().ByName("n"), protoreflect.ValueOfInt64(3))
	b, err := s.Serialize(topic, m)
	if err != nil {
		t.Fatal(err)
	}
	meta, err := cl.GetLatestSchemaMetadata(topic + "-value")
	if err != nil {
		t.Fatalf("subject %s-value: %v", topic, err)
	}
	if schemaID(t, b) != meta.ID || meta.SchemaType != "PROTOBUF" {
		t.Fatalf("id %d, registry %+v", schemaID(t, b), meta)
	}
	// Message indexes: a count of 1 (zigzag 0x02) and index 1 (0x02), then
	// field 1 "a" (0a 01 61) and field 2 = 3 (10 03).
	if want := []byte{0x02, 0x02, 0x0a, 0x01, 'a', 0x10, 0x03}; !bytes.Equal(b[5:], want) {
		t.Fatalf("payload % x, want % x", b[5:], want)
	}
	out, err := s.Deserialize(topic, b)
	if err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(out, m) {
		t.Fatalf("round trip %v, want %v", out, m)
	}
	_, err = s.Deserialize(topic, []byte{0, 0x7f, 0xff, 0xff, 0xf2, 0x00, 0x0a, 0x01, 'a'})
	var we *registry.WireError
	if !errors.As(err, &we) || we.SchemaID != 0x7ffffff2 || !errors.Is(err, registry.ErrUnknownSchema) || !errors.Is(err, serde.ErrSerialization) {
		t.Fatalf("unknown id: %v", err)
	}
	if _, err := s.Deserialize(topic, []byte{5, 0, 0, 0, 1, 0}); err == nil || !strings.Contains(err.Error(), "magic byte") {
		t.Fatalf("bad magic: %v", err)
	}
}

// TestProtobufDynamicMessageFieldsInNumberOrder: a dynamic message's fields
// are written by field number, as generated code and Java's DynamicMessage
// write them, whatever order they were set in, so that the bytes equal a
// JVM serializer's.
func TestProtobufDynamicMessageFieldsInNumberOrder(t *testing.T) {
	cl := testregistry.Client(t)
	topic := testregistry.Name(t, "porder")
	pkg := strings.ReplaceAll(testregistry.Name(t, "io.stoatflow.order"), "-", "_")
	str := descriptorpb.FieldDescriptorProto_TYPE_STRING
	opt := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL
	msg := &descriptorpb.DescriptorProto{Name: proto.String("Wide")}
	for i, n := range []string{"a", "b", "c", "d", "e", "f"} {
		msg.Field = append(msg.Field, &descriptorpb.FieldDescriptorProto{Name: proto.String(n), Number: proto.Int32(int32(i + 1)), Type: &str, Label: &opt})
	}
	f, err := protodesc.NewFile(&descriptorpb.FileDescriptorProto{Name: proto.String(pkg + "/wide.proto"), Package: proto.String(pkg),
		Syntax: proto.String("proto3"), MessageType: []*descriptorpb.DescriptorProto{msg}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	md := f.Messages().Get(0)
	s, err := registry.NewProtobuf(cl, registry.DefaultSerdeConfig(false), func() *dynamicpb.Message { return dynamicpb.NewMessage(md) })
	if err != nil {
		t.Fatal(err)
	}
	// Fields 1..6 = "1".."6", then the message index 0.
	want := []byte{0x00}
	for i := 1; i <= 6; i++ {
		want = append(want, byte(i<<3|2), 1, byte('0'+i))
	}
	for round := 0; round < 20; round++ {
		m := dynamicpb.NewMessage(md)
		for i := 6; i >= 1; i-- {
			m.Set(md.Fields().ByNumber(protoreflect.FieldNumber(i)), protoreflect.ValueOfString(string(rune('0'+i))))
		}
		b, err := s.Serialize(topic, m)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b[5:], want) {
			t.Fatalf("round %d: payload % x, want % x", round, b[5:], want)
		}
	}
}
