package properties

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseJavaSemantics(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want map[string]string
	}{
		{"equals", "a=b", map[string]string{"a": "b"}},
		{"colon", "a:b", map[string]string{"a": "b"}},
		{"space", "a b", map[string]string{"a": "b"}},
		{"tab and spaces around separator", "a \t = \t b", map[string]string{"a": "b"}},
		{"only first separator counts", "a=b=c", map[string]string{"a": "b=c"}},
		{"whitespace then colon", "a :b", map[string]string{"a": "b"}},
		{"trailing whitespace kept", "a=b  ", map[string]string{"a": "b  "}},
		{"leading whitespace dropped", "   a=b", map[string]string{"a": "b"}},
		{"key only", "a", map[string]string{"a": ""}},
		{"key and separator", "a=", map[string]string{"a": ""}},
		{"empty key", "=b", map[string]string{"": "b"}},
		{"hash comment", "# a=b\nc=d", map[string]string{"c": "d"}},
		{"bang comment", "! a=b\nc=d", map[string]string{"c": "d"}},
		{"indented comment", "   # a=b\nc=d", map[string]string{"c": "d"}},
		{"hash inside value", "a=b#c", map[string]string{"a": "b#c"}},
		{"continuation", "a=b\\\n   c", map[string]string{"a": "bc"}},
		{"continuation CRLF", "a=b\\\r\n  c\r\nd=e", map[string]string{"a": "bc", "d": "e"}},
		{"continuation CR", "a=b\\\r  c\rd=e", map[string]string{"a": "bc", "d": "e"}},
		{"continuation line starting with hash", "a=b\\\n#c", map[string]string{"a": "b#c"}},
		{"comment line not continued", "#a\\\nb=c", map[string]string{"b": "c"}},
		{"even backslashes do not continue", "a=b\\\\\nc=d", map[string]string{"a": "b\\", "c": "d"}},
		{"empty continuation ends the line", "a=b\\\n\nc=d", map[string]string{"a": "b", "c": "d"}},
		{"hash after continuation of a bare backslash is a comment", "\\\n#c=d\ne=f", map[string]string{"e": "f"}},
		{"empty line after continuation of a bare backslash", "\\\r\n\n k=v", map[string]string{"k": "v"}},
		{"backslash at EOF dropped", "a=b\\", map[string]string{"a": "b"}},
		{"escaped separator in key", "a\\=b=c", map[string]string{"a=b": "c"}},
		{"escaped colon and space in key", "a\\:b\\ c=d", map[string]string{"a:b c": "d"}},
		{"unicode escape", "a=\\u00e9\\u4e2d", map[string]string{"a": "é中"}},
		{"surrogate pair", "a=\\ud83d\\ude00", map[string]string{"a": "😀"}},
		{"control escapes", `a=\t\n\r\f`, map[string]string{"a": "\t\n\r\f"}},
		{"other escapes stand for themselves", `a=\q\#\!\\`, map[string]string{"a": `q#!\`}},
		{"latin1 bytes", "a=caf\xe9", map[string]string{"a": "café"}},
		{"duplicate: last wins", "a=1\na=2", map[string]string{"a": "2"}},
		{"blank lines", "\n\n  \n\ta=b\n\n", map[string]string{"a": "b"}},
		{"form feed is blank", "\fa\f=\fb", map[string]string{"a": "b"}},
		{"dollar in class name", "k=org.x.Serdes$StringSerde", map[string]string{"k": "org.x.Serdes$StringSerde"}},
		{"windows path", `p=C:\\dir\\file`, map[string]string{"p": `C:\dir\file`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("t.properties", []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if p.Len() != len(tt.want) {
				t.Fatalf("got %d keys %v, want %v", p.Len(), p.Keys(), tt.want)
			}
			for k, v := range tt.want {
				if got := p.Value(k); got != v || !p.Has(k) {
					t.Errorf("%q = %q, want %q", k, got, v)
				}
			}
		})
	}
}

func TestParseLineNumbers(t *testing.T) {
	in := "# header\n\na=1\nb=2\\\n  continued\nc=3\r\nd=4\re=5\na=6"
	p, err := Parse("f.properties", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"a": 9, "b": 4, "c": 6, "d": 7, "e": 8}
	for k, line := range want {
		e, _ := p.Get(k)
		if e.Pos.Line != line || e.Pos.File != "f.properties" {
			t.Errorf("%s at %v, want line %d", k, e.Pos, line)
		}
	}
	if e, _ := p.Get("c"); e.Pos.String() != "f.properties:6" {
		t.Errorf("Pos.String = %q", e.Pos.String())
	}
}

func TestParseMalformedUnicode(t *testing.T) {
	for _, in := range []string{`a=\u12`, `a=\uzzzz`, "x=1\nb\\u00g1=c", `a=\u`} {
		_, err := Parse("bad.properties", []byte(in))
		if !errors.Is(err, ErrMalformedUnicode) {
			t.Errorf("%q: err = %v, want malformed \\uxxxx", in, err)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "bad.properties:") {
			t.Errorf("%q: error %q lacks the position", in, err)
		}
	}
}

func TestLoadLayersFilesAndSets(t *testing.T) {
	dir := t.TempDir()
	f1 := filepath.Join(dir, "base.properties")
	f2 := filepath.Join(dir, "env.properties")
	os.WriteFile(f1, []byte("a=1\nb=1\nc=1\n"), 0o644)
	os.WriteFile(f2, []byte("b=2\nc=2\n"), 0o644)
	p, err := Load([]string{f1, f2}, []string{"c=3", " d = x=y "})
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"a": "1", "b": "2", "c": "3", "d": " x=y "} {
		if got := p.Value(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if e, _ := p.Get("b"); e.Pos.File != f2 || e.Pos.Line != 1 {
		t.Errorf("b from %v", e.Pos)
	}
	if e, _ := p.Get("c"); e.Pos.String() != "--set #1" {
		t.Errorf("c from %v", e.Pos)
	}
	if _, err := Load(nil, []string{"novalue"}); err == nil {
		t.Error("--set without = accepted")
	}
	if _, err := Load([]string{filepath.Join(dir, "missing")}, nil); err == nil {
		t.Error("missing file accepted")
	}
}

func TestResolveProviders(t *testing.T) {
	dir := t.TempDir()
	secrets := filepath.Join(dir, "secrets.properties")
	os.WriteFile(secrets, []byte("db.password=s3cr\\u00e9t\nuser=alice\n"), 0o600)
	os.Mkdir(filepath.Join(dir, "k8s"), 0o700)
	os.WriteFile(filepath.Join(dir, "k8s", "token"), []byte("tok-123"), 0o600)
	env := &Environment{LookupEnv: func(k string) (string, bool) {
		if k == "KAFKA_USER" {
			return "bob", true
		}
		return "", false
	}}
	src := "config.providers=env,file,dir\n" +
		"config.providers.env.class=org.apache.kafka.common.config.provider.EnvVarConfigProvider\n" +
		"config.providers.file.class=org.apache.kafka.common.config.provider.FileConfigProvider\n" +
		"config.providers.dir.class=org.apache.kafka.common.config.provider.DirectoryConfigProvider\n" +
		"u=${env:KAFKA_USER}\n" +
		"p=${file:" + secrets + ":db.password}\n" +
		"t=pre-${dir:" + filepath.Join(dir, "k8s") + ":token}-post\n" +
		"other=${vault:x:y}\n"
	p, err := Parse("app.properties", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	warns, err := Resolve(p, env)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"u": "bob", "p": "s3cr\u00e9t", "t": "pre-tok-123-post", "other": "${vault:x:y}"} {
		if got := p.Value(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if len(warns) != 1 || !strings.Contains(warns[0].String(), "app.properties:8: other: ${vault:x:y} names no configured config provider") {
		t.Errorf("warnings = %q", warns)
	}
}

func TestResolveErrors(t *testing.T) {
	env := &Environment{LookupEnv: func(string) (string, bool) { return "", false },
		ReadFile: func(string) ([]byte, error) { return []byte("k=v"), nil }}
	tests := []struct{ src, want string }{
		{"config.providers=env\nconfig.providers.env.class=org.apache.kafka.common.config.provider.EnvVarConfigProvider\nx=${env:NOPE}",
			"app.properties:3: x: cannot resolve ${env:NOPE}: environment variable NOPE is not set"},
		{"config.providers=v\nconfig.providers.v.class=com.acme.VaultConfigProvider\nx=1",
			"app.properties:2: config.providers.v.class: config provider class com.acme.VaultConfigProvider is not available in StoatFlow"},
		{"config.providers=env\nx=1", "config provider \"env\" has no class"},
		{"config.providers=f\nconfig.providers.f.class=org.apache.kafka.common.config.provider.FileConfigProvider\nx=${f:/a.properties:missing}",
			"/a.properties has no key missing"},
		{"config.providers=f\nconfig.providers.f.class=org.apache.kafka.common.config.provider.FileConfigProvider\nconfig.providers.f.param.allowed.paths=/etc/kafka\nx=${f:/tmp/a.properties:k}",
			"outside config.providers.f.param.allowed.paths"},
		{"config.providers=env\nconfig.providers.env.class=org.apache.kafka.common.config.provider.EnvVarConfigProvider\nconfig.providers.env.param.allowlist.pattern=KAFKA_.*\nx=${env:HOME}",
			"does not match config.providers.env.param.allowlist.pattern"},
	}
	for _, tt := range tests {
		p, err := Parse("app.properties", []byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		_, err = Resolve(p, env)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, ErrProvider) {
			t.Errorf("%q: err = %v, want %q", tt.src, err, tt.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"a=b", "a\\\n b", "#c\n!d\ne:f g", `\u00e9=\ud83d\ude00`, "a=\\", "a\\=b\\ c d", "\r\n\r\\\r", `\u12`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse("fuzz", data)
		if err != nil {
			if !errors.Is(err, ErrMalformedUnicode) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		for _, e := range p.Entries() {
			if e.Pos.Line < 1 {
				t.Fatalf("key %q has line %d", e.Key, e.Pos.Line)
			}
		}
	})
}
