package protojoin

import (
	"fmt"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
)

// The messages of the twin, one file io/stoatflow/protojoin/clicks.proto
// (the JVM twin builds the same descriptor):
//
//	syntax = "proto3";
//	package io.stoatflow.protojoin;
//	option java_package = "io.stoatflow.reference";
//	option java_outer_classname = "ProtoJoinMessages";
//	message Profile { string name = 1; string tier = 2; }
//	message Click { string page = 1; int64 n = 2; }
//	message EnrichedClick { string page = 1; int64 n = 2; string name = 3; string tier = 4; string kind = 5; }
//
// Profile is the file's first message (message indexes: the single 0),
// Click the second ([1]) and EnrichedClick the third ([2]).
var (
	// File is the descriptor of clicks.proto.
	File protoreflect.FileDescriptor
	// Profile, Click and EnrichedClick are its message types, registered
	// in protoregistry.GlobalTypes as a generated package's are (so that
	// KafkaProtobufSerde from a .properties file finds them, by their full
	// names or their Java classes, io.stoatflow.reference.ProtoJoinMessages$Click...).
	Profile, Click, EnrichedClick protoreflect.MessageType
)

// FilePath is the file's name in the registry's schema references.
const FilePath = "io/stoatflow/protojoin/clicks.proto"

func init() {
	str, i64 := descriptorpb.FieldDescriptorProto_TYPE_STRING, descriptorpb.FieldDescriptorProto_TYPE_INT64
	field := func(name string, n int32, typ descriptorpb.FieldDescriptorProto_Type) *descriptorpb.FieldDescriptorProto {
		return &descriptorpb.FieldDescriptorProto{Name: proto.String(name), Number: proto.Int32(n), Type: typ.Enum(),
			Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum()}
	}
	fd, err := protodesc.NewFile(&descriptorpb.FileDescriptorProto{
		Name: proto.String(FilePath), Package: proto.String("io.stoatflow.protojoin"), Syntax: proto.String("proto3"),
		Options: &descriptorpb.FileOptions{JavaPackage: proto.String("io.stoatflow.reference"), JavaOuterClassname: proto.String("ProtoJoinMessages")},
		MessageType: []*descriptorpb.DescriptorProto{
			{Name: proto.String("Profile"), Field: []*descriptorpb.FieldDescriptorProto{field("name", 1, str), field("tier", 2, str)}},
			{Name: proto.String("Click"), Field: []*descriptorpb.FieldDescriptorProto{field("page", 1, str), field("n", 2, i64)}},
			{Name: proto.String("EnrichedClick"), Field: []*descriptorpb.FieldDescriptorProto{
				field("page", 1, str), field("n", 2, i64), field("name", 3, str), field("tier", 4, str), field("kind", 5, str)}},
		},
	}, nil)
	if err != nil {
		panic(fmt.Sprintf("protojoin: clicks.proto: %v", err))
	}
	if err := protoregistry.GlobalFiles.RegisterFile(fd); err != nil {
		panic(fmt.Sprintf("protojoin: registering clicks.proto: %v", err))
	}
	File = fd
	types := []*protoreflect.MessageType{&Profile, &Click, &EnrichedClick}
	for i, t := range types {
		*t = dynamicpb.NewMessageType(fd.Messages().Get(i))
		if err := protoregistry.GlobalTypes.RegisterMessage(*t); err != nil {
			panic(fmt.Sprintf("protojoin: registering %s: %v", fd.Messages().Get(i).FullName(), err))
		}
	}
}

// New returns an empty message of t with the given fields set (string or
// int64 values by field name).
func New(t protoreflect.MessageType, fields map[string]any) *dynamicpb.Message {
	m := dynamicpb.NewMessage(t.Descriptor())
	for name, v := range fields {
		f := t.Descriptor().Fields().ByName(protoreflect.Name(name))
		if f == nil {
			panic(fmt.Sprintf("protojoin: %s has no field %s", t.Descriptor().FullName(), name))
		}
		m.Set(f, protoreflect.ValueOf(v))
	}
	return m
}

// Get returns the value of the named field of m (its default when unset).
func Get(m proto.Message, name string) protoreflect.Value {
	r := m.ProtoReflect()
	return r.Get(r.Descriptor().Fields().ByName(protoreflect.Name(name)))
}
