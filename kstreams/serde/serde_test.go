package serde

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

func TestBuiltinBytesMatchKafka(t *testing.T) {
	mustSer := func(b []byte, err error) []byte {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	cases := []struct {
		name string
		got  []byte
		want []byte
	}{
		{"string", mustSer(String{}.Serialize("t", "héllo")), []byte("h\xc3\xa9llo")},
		{"long 1", mustSer(Long{}.Serialize("t", 1)), []byte{0, 0, 0, 0, 0, 0, 0, 1}},
		{"long -1", mustSer(Long{}.Serialize("t", -1)), bytes.Repeat([]byte{0xff}, 8)},
		{"long min", mustSer(Long{}.Serialize("t", math.MinInt64)), []byte{0x80, 0, 0, 0, 0, 0, 0, 0}},
		{"int 258", mustSer(Integer{}.Serialize("t", 258)), []byte{0, 0, 1, 2}},
		{"short -2", mustSer(Short{}.Serialize("t", -2)), []byte{0xff, 0xfe}},
		{"double 1.5", mustSer(Double{}.Serialize("t", 1.5)), []byte{0x3f, 0xf8, 0, 0, 0, 0, 0, 0}},
		{"float 1.5", mustSer(Float{}.Serialize("t", 1.5)), []byte{0x3f, 0xc0, 0, 0}},
		{"bool true", mustSer(Boolean{}.Serialize("t", true)), []byte{1}},
		{"bytearray", mustSer(ByteArray{}.Serialize("t", []byte{9, 8})), []byte{9, 8}},
		{"bytes", mustSer(Bytes{}.Serialize("t", BytesValue{7})), []byte{7}},
		{"void", mustSer(Void{}.Serialize("t", VoidValue{})), nil},
		{"time windowed", mustSer(TimeWindowed[string]{Inner: String{}, WindowSize: 10}.Serialize("t", Windowed[string]{Key: "a", Window: Window{Start: 256, End: 266}})),
			[]byte{'a', 0, 0, 0, 0, 0, 0, 1, 0}},
		{"session windowed", mustSer(SessionWindowed[string]{Inner: String{}}.Serialize("t", Windowed[string]{Key: "a", Window: Window{Start: 1, End: 2}})),
			[]byte{'a', 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1}},
	}
	for _, c := range cases {
		if !bytes.Equal(c.got, c.want) || (c.want == nil) != (c.got == nil) {
			t.Errorf("%s: got %x want %x", c.name, c.got, c.want)
		}
	}
}

func TestDeserializerErrorsUseKafkaWording(t *testing.T) {
	_, err := Long{}.Deserialize("t", []byte{1, 2, 3})
	if err == nil || err.Error() != "Size of data received by LongDeserializer is not 8" || !errors.Is(err, ErrSerialization) {
		t.Fatalf("long: %v", err)
	}
	_, err = Integer{}.Deserialize("t", []byte{1})
	if err == nil || err.Error() != "Size of data received by IntegerDeserializer is not 4" {
		t.Fatalf("int: %v", err)
	}
	_, err = Double{}.Deserialize("t", []byte{1})
	if err == nil || err.Error() != "Size of data received by Deserializer is not 8" {
		t.Fatalf("double: %v", err)
	}
	_, err = Void{}.Deserialize("t", []byte{})
	if err == nil || err.Error() != "Data should be null for a VoidDeserializer." {
		t.Fatalf("void: %v", err)
	}
}

func TestErasedNullHandling(t *testing.T) {
	u := Erase[int64](Long{})
	b, err := u.SerializeAny("t", nil)
	if err != nil || b != nil {
		t.Fatalf("nil value: %x %v", b, err)
	}
	v, err := u.DeserializeAny("t", nil)
	if err != nil || v != nil {
		t.Fatalf("nil bytes: %v %v", v, err)
	}
	v, err = u.DeserializeAny("t", []byte{0, 0, 0, 0, 0, 0, 0, 42})
	if err != nil || v.(int64) != 42 {
		t.Fatalf("42: %v %v", v, err)
	}
	if _, err := u.SerializeAny("t", "str"); !errors.Is(err, ErrSerialization) {
		t.Fatalf("wrong type: %v", err)
	}
}

func TestTimeWindowedDeserializeRebuildsEnd(t *testing.T) {
	s := TimeWindowed[string]{Inner: String{}, WindowSize: 100}
	b, _ := s.Serialize("t", Windowed[string]{Key: "key", Window: Window{Start: 1000, End: 1100}})
	w, err := s.Deserialize("t", b)
	if err != nil || w.Key != "key" || w.Window != (Window{1000, 1100}) {
		t.Fatalf("%+v %v", w, err)
	}
	s.WindowSize = math.MaxInt64
	w, _ = s.Deserialize("t", b)
	if w.Window.End != math.MaxInt64 {
		t.Fatalf("overflow end %d", w.Window.End)
	}
}

// Short windowed keys fail with the message Kafka's windowed deserializers
// give, as a SerializationError.
func TestWindowedDeserializersRejectShortKeys(t *testing.T) {
	_, err := TimeWindowed[string]{Inner: String{}, WindowSize: 10}.Deserialize("t", []byte("1234567"))
	if err == nil || err.Error() != "Size of data received by TimeWindowedDeserializer is shorter than 8" || !errors.Is(err, ErrSerialization) {
		t.Errorf("time windowed: %v", err)
	}
	_, err = SessionWindowed[string]{Inner: String{}}.Deserialize("t", make([]byte, 15))
	if err == nil || err.Error() != "Size of data received by SessionWindowedDeserializer is shorter than 16" || !errors.Is(err, ErrSerialization) {
		t.Errorf("session windowed: %v", err)
	}
	if _, _, err := SplitTimeWindowed(make([]byte, 8)); err != nil {
		t.Errorf("8 bytes: %v", err)
	}
	if _, _, err := SplitSessionWindowed(make([]byte, 16)); err != nil {
		t.Errorf("16 bytes: %v", err)
	}
}

func TestByClassName(t *testing.T) {
	for class := range byClass {
		if _, err := ByClassName(class); err != nil {
			t.Errorf("%s: %v", class, err)
		}
	}
	s, _ := ByClassName(ClassString)
	b, _ := s.SerializeAny("t", "x")
	if string(b) != "x" {
		t.Fatal(b)
	}
	if _, err := ByClassName("com.example.Nope"); !errors.Is(err, ErrUnknownClass) {
		t.Fatal(err)
	}
	w, err := WindowedByClassName(ClassTimeWindowed, ClassString, 10)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = w.SerializeAny("t", Windowed[any]{Key: "k", Window: Window{Start: 3}})
	got, _ := w.DeserializeAny("t", b)
	if got.(Windowed[any]).Window != (Window{3, 13}) || got.(Windowed[any]).Key.(string) != "k" {
		t.Fatalf("%+v", got)
	}
}

func FuzzLong(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 1})
	f.Add([]byte{1})
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := Long{}.Deserialize("t", b)
		if err != nil {
			return
		}
		out, _ := Long{}.Serialize("t", v)
		if !bytes.Equal(out, b) {
			t.Fatalf("round trip %x -> %d -> %x", b, v, out)
		}
	})
}

func FuzzIntegerDoubleFloatShortBoolean(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1})
	f.Add([]byte{1})
	f.Fuzz(func(t *testing.T, b []byte) {
		if v, err := (Integer{}).Deserialize("t", b); err == nil {
			if out, _ := (Integer{}).Serialize("t", v); !bytes.Equal(out, b) {
				t.Fatalf("int %x", b)
			}
		}
		if v, err := (Double{}).Deserialize("t", b); err == nil && v == v {
			if out, _ := (Double{}).Serialize("t", v); !bytes.Equal(out, b) {
				t.Fatalf("double %x", b)
			}
		}
		if v, err := (Float{}).Deserialize("t", b); err == nil {
			if out, _ := (Float{}).Serialize("t", v); !bytes.Equal(out, b) {
				t.Fatalf("float %x", b)
			}
		}
		if v, err := (Short{}).Deserialize("t", b); err == nil {
			if out, _ := (Short{}).Serialize("t", v); !bytes.Equal(out, b) {
				t.Fatalf("short %x", b)
			}
		}
		if v, err := (Boolean{}).Deserialize("t", b); err == nil {
			if out, _ := (Boolean{}).Serialize("t", v); !bytes.Equal(out, b) {
				t.Fatalf("bool %x", b)
			}
		}
		_, _ = (UUID{}).Deserialize("t", b)
	})
}

func FuzzWindowedKeys(f *testing.F) {
	f.Add([]byte("key\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if w, err := (TimeWindowed[[]byte]{Inner: ByteArray{}, WindowSize: 10}).Deserialize("t", b); err == nil {
			out, _ := (TimeWindowed[[]byte]{Inner: ByteArray{}}).Serialize("t", w)
			if !bytes.Equal(out, b) {
				t.Fatalf("time windowed %x", b)
			}
		}
		if w, err := (SessionWindowed[[]byte]{Inner: ByteArray{}}).Deserialize("t", b); err == nil {
			out, _ := (SessionWindowed[[]byte]{Inner: ByteArray{}}).Serialize("t", w)
			if !bytes.Equal(out, b) {
				t.Fatalf("session windowed %x", b)
			}
		}
	})
}

func TestBaseKeyOfWindowedSerdes(t *testing.T) {
	w := Windowed[string]{Key: "k", Window: Window{Start: 1, End: 2}}
	for _, s := range []Untyped{Erase[Windowed[string]](TimeWindowed[string]{Inner: String{}}), Erase[Windowed[string]](SessionWindowed[string]{Inner: String{}})} {
		b, ok, err := BaseKey(s, "t", w)
		if err != nil || !ok || string(b) != "k" {
			t.Errorf("%T: %q %v %v", s, b, ok, err)
		}
	}
	if _, ok, _ := BaseKey(Erase[string](String{}), "t", "k"); ok {
		t.Error("String serde has no base key")
	}
}

// TestWindowedDeserializersReadEmptyAsNull: Kafka's TimeWindowedDeserializer
// and SessionWindowedDeserializer return null for empty input, not an error.
func TestWindowedDeserializersReadEmptyAsNull(t *testing.T) {
	for name, u := range map[string]Untyped{
		"time":    Erase[Windowed[string]](TimeWindowed[string]{Inner: String{}, WindowSize: 10}),
		"session": Erase[Windowed[string]](SessionWindowed[string]{Inner: String{}}),
	} {
		for _, in := range [][]byte{nil, {}} {
			v, err := u.DeserializeAny("t", in)
			if err != nil || v != nil {
				t.Errorf("%s: DeserializeAny(%q) = %v, %v; want nil, nil", name, in, v, err)
			}
		}
		b, err := u.SerializeAny("t", nil)
		if err != nil || b != nil {
			t.Errorf("%s: SerializeAny(nil) = %x, %v; want nil", name, b, err)
		}
		if _, err := u.DeserializeAny("t", []byte{1, 2}); err == nil {
			t.Errorf("%s: 2 bytes deserialized without an error", name)
		}
	}
}
