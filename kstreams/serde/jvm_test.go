package serde

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// jvmSerdes are the built-in serdes under the names of testdata/jvm-serdes.txt
// (integration/reference's SerdeOracle).
var jvmSerdes = map[string]Untyped{
	"string":     Erase[string](String{}),
	"long":       Erase[int64](Long{}),
	"integer":    Erase[int32](Integer{}),
	"short":      Erase[int16](Short{}),
	"double":     Erase[float64](Double{}),
	"float":      Erase[float32](Float{}),
	"boolean":    Erase[bool](Boolean{}),
	"bytearray":  Erase[[]byte](ByteArray{}),
	"bytebuffer": Erase[ByteBufferValue](ByteBuffer{}),
	"bytes":      Erase[BytesValue](Bytes{}),
	"uuid":       Erase[UUIDValue](UUID{}),
	"void":       Erase[VoidValue](Void{}),
}

// roundTrip is the answer in testdata/jvm-serdes.txt's form: the bytes the
// serde writes for what it read, or the deserializer's message.
func roundTrip(name string, data []byte) string {
	s := jvmSerdes[name]
	v, err := s.DeserializeAny("t", data)
	if err != nil {
		return "err " + err.Error()
	}
	out, err := s.SerializeAny("t", v)
	if err != nil {
		return "err " + err.Error()
	}
	if out == nil {
		return "ok null"
	}
	return "ok " + hex.EncodeToString(out)
}

type jvmCase struct {
	serde string
	data  []byte
	want  string
}

// jvmGolden reads testdata/jvm-serdes.txt: what Kafka 4.4's serdes on the
// JVM answered, recorded by integration.TestBuiltinSerdesMatchJVM.
func jvmGolden(tb testing.TB) []jvmCase {
	tb.Helper()
	f, err := os.Open("testdata/jvm-serdes.txt")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var cs []jvmCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		in, want, ok := strings.Cut(line, "\t")
		name, data, ok2 := strings.Cut(in, " ")
		if !ok || !ok2 || jvmSerdes[name] == nil {
			tb.Fatalf("testdata/jvm-serdes.txt:%d: want SERDE HEX<tab>ANSWER, got %q", n, line)
		}
		c := jvmCase{serde: name, want: want}
		if data != "null" {
			if c.data, err = hex.DecodeString(data); err != nil {
				tb.Fatalf("testdata/jvm-serdes.txt:%d: %v", n, err)
			}
			if c.data == nil {
				c.data = []byte{}
			}
		}
		cs = append(cs, c)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return cs
}

func jvmGoldenFor(tb testing.TB, names ...string) map[string]string {
	m := map[string]string{}
	for _, c := range jvmGolden(tb) {
		for _, n := range names {
			if c.serde == n && c.data != nil {
				m[n+" "+string(c.data)] = c.want
			}
		}
	}
	return m
}

// TestMatchesJVMGolden checks every recorded JVM answer: malformed UTF-8 of
// every class, lenient and invalid UUIDs, wrong sizes, NaNs, null and empty
// input for every serde.
func TestMatchesJVMGolden(t *testing.T) {
	cs := jvmGolden(t)
	seen := map[string]int{}
	for _, c := range cs {
		seen[c.serde]++
		if got := roundTrip(c.serde, c.data); got != c.want {
			t.Errorf("%s %x: JVM %q, StoatFlow %q", c.serde, c.data, c.want, got)
		}
	}
	for name := range jvmSerdes {
		if seen[name] < 3 {
			t.Errorf("testdata/jvm-serdes.txt has %d cases for %s", seen[name], name)
		}
	}
	if seen["string"] < 5000 || seen["uuid"] < 300 {
		t.Errorf("testdata/jvm-serdes.txt is missing cases: %v", seen)
	}
}

// FuzzStringSerde: on the recorded inputs, the JVM's answer; on every input,
// the properties Java's decoding has: the result is valid UTF-8, valid input
// comes back unchanged, decoding is idempotent, and serializing a Go string
// with invalid UTF-8 writes what deserializing its bytes reads.
func FuzzStringSerde(f *testing.F) {
	golden := jvmGoldenFor(f, "string")
	for k := range golden {
		f.Add([]byte(strings.TrimPrefix(k, "string ")))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if want, ok := golden["string "+string(b)]; ok {
			if got := roundTrip("string", b); got != want {
				t.Fatalf("%x: JVM %q, StoatFlow %q", b, want, got)
			}
		}
		s, err := String{}.Deserialize("t", b)
		if err != nil {
			t.Fatal(err)
		}
		if !utf8.ValidString(s) {
			t.Fatalf("%x decodes to invalid UTF-8 %x", b, s)
		}
		if utf8.Valid(b) && s != string(b) {
			t.Fatalf("valid %x decodes to %x", b, s)
		}
		if again, _ := (String{}).Deserialize("t", []byte(s)); again != s {
			t.Fatalf("%x: decoding twice gives %x, then %x", b, s, again)
		}
		w, err := String{}.Serialize("t", string(b))
		if err != nil {
			t.Fatal(err)
		}
		if string(w) != s {
			t.Fatalf("%x: Serialize writes %x, Deserialize reads %x", b, w, s)
		}
		if strings.Count(s, replacement) > len(b) {
			t.Fatalf("%x: more replacements than bytes in %x", b, s)
		}
	})
}

// FuzzUUIDSerde: on the recorded inputs, the JVM's answer; on every input,
// an accepted UUID reads back in canonical form, which reads back as itself,
// and Serialize accepts exactly what Deserialize accepts.
func FuzzUUIDSerde(f *testing.F) {
	golden := jvmGoldenFor(f, "uuid")
	for k := range golden {
		f.Add([]byte(strings.TrimPrefix(k, "uuid ")))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if want, ok := golden["uuid "+string(b)]; ok {
			if got := roundTrip("uuid", b); got != want {
				t.Fatalf("%q: JVM %q, StoatFlow %q", b, want, got)
			}
		}
		v, err := UUID{}.Deserialize("t", b)
		w, serr := UUID{}.Serialize("t", UUIDValue(b))
		if err != nil {
			if err.Error() != "Error parsing data into UUID" {
				t.Fatalf("%q: %v", b, err)
			}
			if serr == nil {
				t.Fatalf("%q: Deserialize refuses it, Serialize writes %q", b, w)
			}
			return
		}
		if serr != nil || string(w) != string(v) {
			t.Fatalf("%q: Deserialize reads %q, Serialize writes %q (%v)", b, v, w, serr)
		}
		if len(v) != 36 || strings.ToLower(string(v)) != string(v) {
			t.Fatalf("%q reads as %q, not canonical", b, v)
		}
		if again, err := (UUID{}).Deserialize("t", []byte(v)); err != nil || again != v {
			t.Fatalf("%q: canonical %q reads back as %q (%v)", b, v, again, err)
		}
	})
}

// FuzzFixedWidthSerdes: the numeric and boolean serdes refuse every wrong
// size with Kafka's message, and write back what they read (the double
// serde's NaNs as Java's one canonical NaN).
func FuzzFixedWidthSerdes(f *testing.F) {
	golden := jvmGoldenFor(f, "long", "integer", "short", "double", "float", "boolean")
	for k := range golden {
		name, data, _ := strings.Cut(k, " ")
		f.Add(name, []byte(data))
	}
	widths := map[string]int{"long": 8, "integer": 4, "short": 2, "double": 8, "float": 4, "boolean": 1}
	messages := map[string]string{
		"long": "Size of data received by LongDeserializer is not 8", "integer": "Size of data received by IntegerDeserializer is not 4",
		"short": "Size of data received by ShortDeserializer is not 2", "double": "Size of data received by Deserializer is not 8",
		"float": "Size of data received by Deserializer is not 4", "boolean": "Size of data received by BooleanDeserializer is not 1",
	}
	f.Fuzz(func(t *testing.T, name string, b []byte) {
		width, ok := widths[name]
		if !ok {
			return
		}
		if want, ok := golden[name+" "+string(b)]; ok {
			if got := roundTrip(name, b); got != want {
				t.Fatalf("%s %x: JVM %q, StoatFlow %q", name, b, want, got)
			}
		}
		got := roundTrip(name, b)
		switch {
		case len(b) != width:
			if got != "err "+messages[name] {
				t.Fatalf("%s %x: %q", name, b, got)
			}
		case name == "boolean" && b[0] > 1:
			if !strings.HasPrefix(got, "err Unexpected byte received by BooleanDeserializer: ") {
				t.Fatalf("boolean %x: %q", b, got)
			}
		case name == "double" && b[0]&0x7f == 0x7f && b[1]&0xf0 == 0xf0 && !bytes.Equal(b[1:], []byte{0xf0, 0, 0, 0, 0, 0, 0}):
			if got != "ok 7ff8000000000000" {
				t.Fatalf("double NaN %x writes back %q", b, got)
			}
		default:
			if got != "ok "+hex.EncodeToString(b) {
				t.Fatalf("%s %x writes back %q", name, b, got)
			}
		}
	})
}

// TestStringValidFastPath: valid UTF-8 costs one allocation (the string),
// whatever its script.
func TestStringValidFastPath(t *testing.T) {
	b := []byte(strings.Repeat("héllo wörld €𝄞 ", 20))
	if n := testing.AllocsPerRun(100, func() { _, _ = String{}.Deserialize("t", b) }); n != 1 {
		t.Errorf("Deserialize of valid UTF-8: %v allocations, want 1", n)
	}
}

func BenchmarkStringDeserialize(b *testing.B) {
	valid := []byte(strings.Repeat("a record value, ünïcødé € 𝄞 ", 8))
	invalid := bytes.Clone(valid)
	for i := 0; i < len(invalid); i += 16 {
		invalid[i] = 0xff
	}
	for _, c := range []struct {
		name string
		data []byte
	}{{"valid=true", valid}, {"valid=false", invalid}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				_, _ = String{}.Deserialize("t", c.data)
			}
		})
	}
}
