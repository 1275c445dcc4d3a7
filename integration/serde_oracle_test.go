package integration

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// oracleSerdes are the built-in serdes under the names SerdeOracle.java knows.
var oracleSerdes = map[string]serde.Untyped{
	"string":     serde.Erase[string](serde.String{}),
	"long":       serde.Erase[int64](serde.Long{}),
	"integer":    serde.Erase[int32](serde.Integer{}),
	"short":      serde.Erase[int16](serde.Short{}),
	"double":     serde.Erase[float64](serde.Double{}),
	"float":      serde.Erase[float32](serde.Float{}),
	"boolean":    serde.Erase[bool](serde.Boolean{}),
	"bytearray":  serde.Erase[[]byte](serde.ByteArray{}),
	"bytebuffer": serde.Erase[serde.ByteBufferValue](serde.ByteBuffer{}),
	"bytes":      serde.Erase[serde.BytesValue](serde.Bytes{}),
	"uuid":       serde.Erase[serde.UUIDValue](serde.UUID{}),
	"void":       serde.Erase[serde.VoidValue](serde.Void{}),
}

// oracleCase is one input for one serde; golden cases are also written to
// kstreams/serde/testdata/jvm-serdes.txt.
type oracleCase struct {
	serde  string
	data   []byte // nil is Kafka's null
	golden bool
}

func (c oracleCase) line() string {
	if c.data == nil {
		return c.serde + " null"
	}
	return c.serde + " " + hex.EncodeToString(c.data)
}

// goRoundTrip is StoatFlow's answer in the oracle's format: the bytes the
// serde writes for what it read, or the deserializer's error message.
func goRoundTrip(name string, data []byte) string {
	s := oracleSerdes[name]
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

// TestBuiltinSerdesMatchJVM feeds every built-in serde the same bytes on
// Kafka 4.4's serdes (SerdeOracle in the reference project, on the JVM) and
// on StoatFlow's, and compares what each reads and writes back, byte for
// byte: every 1-, 2- and 3-byte sequence class of UTF-8 (continuation bytes,
// overlongs, surrogates, truncation at the end and by a non-continuation
// byte, code points past U+10FFFF), 4-byte sequences, random bytes, the Go
// fuzz corpus, the lenient UUID forms, every BMP character as a UUID digit,
// and wrong sizes for the fixed-width serdes.
//
// STOATFLOW_ORACLE_JAVA names another java binary to ask. With
// STOATFLOW_UPDATE_SERDE_GOLDEN=1 it rewrites
// kstreams/serde/testdata/jvm-serdes.txt, the JVM's answers for a subset of
// the cases, which kstreams/serde's tests check without a JVM.
func TestBuiltinSerdesMatchJVM(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"java", "mvn"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s not found: the serde comparison needs a JDK 17 and Maven", tool)
			}
			t.Skipf("%s not found: the serde comparison needs a JDK 17 and Maven", tool)
		}
	}
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	jar, err := ReferenceJar(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cases := oracleCases(t, filepath.Join(root, "kstreams", "serde", "testdata", "fuzz"))

	var in bytes.Buffer
	for _, c := range cases {
		in.WriteString(c.line())
		in.WriteByte('\n')
	}
	java := "java"
	if j := os.Getenv("STOATFLOW_ORACLE_JAVA"); j != "" {
		java = j // another JVM to compare with, e.g. a newer JDK
	}
	cmd := exec.CommandContext(ctx, java, "-Xmx512m", "-cp", jar, "io.stoatflow.reference.SerdeOracle")
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("SerdeOracle: %v\n%s", err, tail(stderr.String(), 20))
	}
	answers := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(answers) != len(cases) {
		t.Fatalf("SerdeOracle answered %d lines for %d cases", len(answers), len(cases))
	}
	t.Logf("%d cases, JVM answered in %v", len(cases), time.Since(start).Round(time.Millisecond))

	mismatches := map[string]int{}
	var golden strings.Builder
	golden.WriteString("# Kafka 4.4 serdes on the JVM (integration.TestBuiltinSerdesMatchJVM): serde, input, what the\n" +
		"# serde writes back for what it read (ok HEX / ok null) or the deserializer's message (err).\n")
	for i, c := range cases {
		want := jvmAnswer(answers[i])
		if got := goRoundTrip(c.serde, c.data); got != want {
			mismatches[c.serde]++
			if mismatches[c.serde] <= 20 {
				t.Errorf("%s: Kafka %q, StoatFlow %q", c.line(), want, got)
			}
		}
		if c.golden {
			fmt.Fprintf(&golden, "%s\t%s\n", c.line(), want)
		}
	}
	if len(mismatches) > 0 {
		t.Errorf("mismatches per serde: %v", mismatches)
	}
	if os.Getenv("STOATFLOW_UPDATE_SERDE_GOLDEN") == "1" {
		path := filepath.Join(root, "kstreams", "serde", "testdata", "jvm-serdes.txt")
		if err := os.WriteFile(path, []byte(golden.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", path)
	}
}

// jvmAnswer drops the exception class from an error answer: StoatFlow's
// errors carry Kafka's message, not its class.
func jvmAnswer(a string) string {
	if msg, ok := strings.CutPrefix(a, "err "); ok {
		if i := strings.Index(msg, ": "); i >= 0 {
			return "err " + msg[i+2:]
		}
	}
	return a
}

// utf8Classes are byte values that stand for every class a UTF-8 decoder
// tells apart: ASCII, the edges of the continuation range and of its
// sub-ranges that E0, ED, F0 and F4 allow, and lead bytes of each length.
var utf8Classes = []byte{0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf,
	0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xf8, 0xff}

// utf8Small is a smaller set of the same classes for the golden subset.
var utf8Small = []byte{0x41, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0}

func oracleCases(t *testing.T, fuzzDir string) []oracleCase {
	var cs []oracleCase
	add := func(name string, golden bool, data []byte) {
		cs = append(cs, oracleCase{serde: name, data: data, golden: golden})
	}
	for name := range oracleSerdes {
		add(name, true, nil)
		add(name, true, []byte{})
	}

	// Strings: every sequence of one and two bytes, after each prefix that
	// sends Java's decoder down another path (ASCII, Latin-1, beyond).
	prefixes := [][]byte{nil, []byte("A"), []byte("\u00e9"), []byte("\u20ac")}
	for _, p := range prefixes {
		for b1 := 0; b1 < 256; b1++ {
			add("string", true, cat(p, byte(b1)))
			for b2 := 0; b2 < 256; b2++ {
				add("string", p == nil && b1 >= 0x80 && bytes.IndexByte(utf8Classes, byte(b2)) >= 0, cat(p, byte(b1), byte(b2)))
			}
		}
	}
	// Three bytes: every non-ASCII lead with the class bytes after it.
	for b1 := 0x80; b1 < 256; b1++ {
		for _, b2 := range utf8Classes {
			for _, b3 := range utf8Classes {
				golden := bytes.IndexByte(utf8Small, b2) >= 0 && bytes.IndexByte(utf8Small, b3) >= 0 &&
					bytes.IndexByte([]byte{0x80, 0xc0, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf4, 0xf5}, byte(b1)) >= 0
				add("string", golden, cat(nil, byte(b1), b2, b3))
			}
		}
	}
	// Four bytes: the multi-byte leads with the class bytes after them, at
	// the end of the input and followed by more.
	for b1 := 0xc0; b1 < 256; b1++ {
		for _, b2 := range utf8Classes {
			for _, b3 := range utf8Classes {
				for _, b4 := range utf8Classes {
					golden := bytes.IndexByte(utf8Small, b2) >= 0 && bytes.IndexByte(utf8Small, b3) >= 0 &&
						bytes.IndexByte(utf8Small, b4) >= 0 &&
						bytes.IndexByte([]byte{0xc2, 0xe0, 0xe1, 0xed, 0xee, 0xf0, 0xf1, 0xf4, 0xf5, 0xf8}, byte(b1)) >= 0
					add("string", golden, cat(nil, byte(b1), b2, b3, b4))
				}
			}
		}
	}
	// Valid sequences at the edges of each length, the surrogate range and
	// U+10FFFF, alone and cut short.
	for _, r := range []rune{0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xfffd, 0xffff, 0x10000, 0x10ffff} {
		enc := []byte(string(r))
		for n := 1; n <= len(enc); n++ {
			add("string", true, enc[:n])
			add("string", true, cat(enc[:n], 'z'))
		}
	}

	// The examples javautf8.go gives.
	for _, h := range []string{"eda080", "e282", "e28241", "e080af", "f08f", "f48f", "f490", "f5", "f7bfbfbf"} {
		b, _ := hex.DecodeString(h)
		add("string", true, b)
	}

	rng := rand.New(rand.NewSource(12))
	pick := []byte{0x41, 0x80, 0xbf, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff, 0xa0, 0x90, 0x8f}
	for i := 0; i < 30000; i++ {
		b := make([]byte, rng.Intn(24))
		for j := range b {
			if rng.Intn(3) == 0 {
				b[j] = byte(rng.Intn(256))
			} else {
				b[j] = pick[rng.Intn(len(pick))]
			}
		}
		add("string", i < 300, b)
	}
	for _, b := range fuzzCorpus(t, fuzzDir) {
		for _, name := range []string{"string", "uuid"} {
			add(name, false, b)
		}
	}

	// UUIDs: the canonical form and the lenient forms of UUID.fromString.
	for _, s := range []string{
		"123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000",
		"00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
		"1-2-3-4-5", "+1-+2-+3-+4-+5", "++1-2-3-4-5", "+-1-2-3-4", "-1-2-3-4", "1-2-3-4-", "1-2-3-4",
		"1-2-3-4-5-6", "1--3-4-5", "0x1-2-3-4-5", " 1-2-3-4-5", "1-2-3-4-5 ", "g-0-0-0-0",
		"7fffffffffffffff-0-0-0-0", "8000000000000000-0-0-0-0", "000000000000000001-0-0-0-0",
		"123456789-12345-12345-12345-1234567890abc", "0000000000000000000000000000-0-0-0-0",
		"00000000000000000000000000000-0-0-0-0", "1-2-3-4-5\u00e9\u00e9\u00e9", "\uff11-\uff21-\uff41-\uff26-\uff46",
		"\uff27-0-0-0-0", "\u0661\u0662-\u0663-\u0664-\u0665-\u0669", "\U0001d7ce-0-0-0-0", "a-0-0-0-0\U00010000",
		"123e4567-e89b-12d3-a456-42661417400\u00e9", "123e4567-e89b-12d3-a456-4266141740\U00010000",
		"123e4567+e89b-12d3-a456-426614174000", "123e4567-e89b-12d3-a456_426614174000",
		"123e4567-e89b-12d3-a456-4266141740001", "{123e4567-e89b-12d3-a456-426614174000}",
		"\u2212-0-0-0-0", "1-2-3-4-\u20805",
	} {
		add("uuid", true, []byte(s))
	}
	for _, b := range [][]byte{{0xff, '-', '0', '-', '0', '-', '0', '-', '0'}, {'1', '-', '2', '-', '3', '-', '4', '-', 0xed, 0xa0, 0x80},
		append([]byte("00000000-0000-0000-0000-00000000000"), 0xc3), bytes.Repeat([]byte{0xc3, 0xa9}, 18)} {
		add("uuid", true, b)
	}
	// The canonical form with one character replaced, at every position:
	// Java's fast path for 36 characters falls back to the lenient parser.
	const canonical = "123e4567-e89b-12d3-a456-426614174000"
	for i := range canonical {
		for _, r := range []string{"+", "-", "F", "\uff21", "\u0663", "g", "\u00e9", "\U0001d7ce", "\xff"} {
			u, _ := strconv.Unquote(`"` + r + `"`)
			add("uuid", false, []byte(canonical[:i]+u+canonical[i+1:]))
		}
	}
	// Every BMP character as a digit of the first group: what
	// Character.digit(ch, 16) accepts, and how much each is worth.
	for c := rune(0); c < 0x10000; c++ {
		if c >= 0xd800 && c <= 0xdfff {
			continue
		}
		add("uuid", c < 0x80 || unicode.Is(unicode.Nd, c) || c >= 0xff10 && c <= 0xff5a, []byte(string(c)+"0-0-0-0-0"))
	}
	for i := 0; i < 5000; i++ {
		const alphabet = "0123456789abcdefABCDEF-+-x"
		b := make([]byte, rng.Intn(40))
		for j := range b {
			b[j] = alphabet[rng.Intn(len(alphabet))]
		}
		add("uuid", i < 100, b)
	}

	// Fixed-width serdes: every size around the right one, and NaNs.
	for _, name := range []string{"long", "integer", "short", "double", "float", "boolean"} {
		for n := 1; n <= 9; n++ {
			b := make([]byte, n)
			rng.Read(b)
			add(name, true, b)
		}
	}
	for _, h := range []string{"7ff8000000000000", "7ff0000000000001", "fff8000000000000", "7ff4000000000000",
		"fff0000000000000", "8000000000000000", "0000000000000001", "ffffffffffffffff"} {
		b, _ := hex.DecodeString(h)
		add("double", true, b)
		add("long", true, b)
	}
	for _, h := range []string{"7fc00000", "7f800001", "ffc00001", "7fa00000", "ff800000", "80000000", "00000001"} {
		b, _ := hex.DecodeString(h)
		add("float", true, b)
		add("integer", true, b)
	}
	for b := 0; b < 256; b++ {
		add("boolean", true, []byte{byte(b)})
		add("short", false, []byte{byte(b), byte(255 - b)})
	}
	for _, name := range []string{"bytearray", "bytebuffer", "bytes", "void"} {
		for i := 0; i < 20; i++ {
			b := make([]byte, rng.Intn(12)+1)
			rng.Read(b)
			add(name, i < 5, b)
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].serde < cs[j].serde })
	return cs
}

func cat(prefix []byte, bs ...byte) []byte {
	return append(append([]byte{}, prefix...), bs...)
}

// fuzzCorpus reads the []byte inputs of the Go fuzz corpus files under dir
// (testdata/fuzz/FuzzX/*, "go test fuzz v1" format).
func fuzzCorpus(t *testing.T, dir string) [][]byte {
	var out [][]byte
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			line := sc.Text()
			if q, ok := strings.CutPrefix(line, "[]byte("); ok {
				s, err := strconv.Unquote(strings.TrimSuffix(q, ")"))
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				out = append(out, []byte(s))
			}
		}
	}
	return out
}
