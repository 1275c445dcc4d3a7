package compat

import (
	"bytes"
	"context"
	"encoding/base64"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/stoatflow/stoatflow/properties"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

const testProcessID = "11111111-2222-3333-4444-555555555555"

// render is everything a user sees for one input: findings, then the blocks.
func render(t *testing.T, file string) string {
	t.Helper()
	p, err := properties.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c, diags := Load(p, WithHostName("stoat-host"))
	var b bytes.Buffer
	for _, d := range diags {
		b.WriteString(d.String() + "\n")
	}
	b.WriteString("\n")
	if err := c.WriteStreamsConfig(&b); err != nil {
		t.Fatal(err)
	}
	b.WriteString("\n")
	c.WriteStoatFlowConfig(&b)
	b.WriteString("\n")
	c.WriteClientConfigs(&b, testProcessID)
	// state.dir's default depends on the machine's temp dir.
	return strings.ReplaceAll(b.String(), filepath.Join(os.TempDir(), "kafka-streams"), "<tmp>/kafka-streams")
}

func TestGolden(t *testing.T) {
	for _, name := range []string{"sasl_ssl_eos", "minimal", "not_honoured", "kafka_defaults", "kgo_clients"} {
		t.Run(name, func(t *testing.T) {
			got := render(t, filepath.Join("testdata", name+".properties"))
			golden := filepath.Join("testdata", name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./compat -update)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s (run go test ./compat -update and review the diff):\n%s", golden, got)
			}
		})
	}
}

func TestStreamsConfigBlockFormat(t *testing.T) {
	c, _ := load(t, base)
	var b strings.Builder
	c.WriteStreamsConfig(&b)
	lines := strings.Split(b.String(), "\n")
	if lines[0] != "StreamsConfig values: " {
		t.Errorf("header %q", lines[0])
	}
	if lines[len(lines)-1] != "" || len(lines) != len(streamsKeys)+2 {
		t.Errorf("%d lines; every key line must end in a newline", len(lines))
	}
	for i, l := range lines[1 : len(lines)-1] {
		if !strings.HasPrefix(l, "\t") || !strings.Contains(l, " = ") {
			t.Errorf("line %d %q", i+1, l)
		}
		if i > 0 && lines[i] > lines[i+1] {
			t.Errorf("not sorted at %q", l)
		}
	}
	for _, want := range []string{"\tbootstrap.servers = [127.0.0.1:9092]\n", "\tdefault.key.serde = null\n", "\tclient.id = \n",
		"\tdefault.timestamp.extractor = class org.apache.kafka.streams.processor.FailOnInvalidTimestamp\n", "\tconfig.providers = []\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q", want)
		}
	}
}

// TestNoSecretInAnyOutput guards that passwords never reach output or logs.
func TestNoSecretInAnyOutput(t *testing.T) {
	secrets := []string{"Sup3r-S3cret-Jaas", "Keyst0re-S3cret", "K3y-S3cret", "Http-T0ken-S3cret"}
	p, err := properties.ParseFile("testdata/sasl_ssl_eos.properties")
	if err != nil {
		t.Fatal(err)
	}
	// Add a bad value next to every secret key, so error paths run too.
	p.Set(properties.Entry{Key: "stoatflow.state.interactive-query-isolation-level", Value: "bogus"})
	c, diags := Load(p)
	var out bytes.Buffer
	out.WriteString(render(t, "testdata/sasl_ssl_eos.properties"))
	out.WriteString(c.String())
	for _, d := range diags {
		out.WriteString(d.String() + d.Error())
	}
	var logs bytes.Buffer
	logger := newJSONLogger(&logs)
	diags.Log(logger)
	logger.Info("config", "token", c.HTTPAuthToken, "cfg", c)
	out.WriteString(logs.String())
	out.WriteString(c.HTTPAuthToken.String())
	out.WriteString(fmt.Sprintf("%v %+v %#v %v %+v %#v %s %q", *c, *c, *c, c, c, c, c.HTTPAuthToken, c.HTTPAuthToken))
	for _, v := range c.values {
		out.WriteString(fmt.Sprintf("%v %+v %#v", v, v, v))
	}
	var text bytes.Buffer
	tl := slog.New(slog.NewTextHandler(&text, nil))
	tl.Info("config", "cfg", *c, "ptr", c, "token", c.HTTPAuthToken)
	logger.Info("config", "cfg", *c)
	out.WriteString(text.String() + logs.String())
	for _, s := range secrets {
		if strings.Contains(out.String(), s) {
			t.Errorf("secret %q appears in output", s)
		}
	}
	// The secrets are still there for the clients to use: the producer's
	// SCRAM exchange proves the password (the same client proof as a SCRAM
	// client given the password and the same nonce).
	if c.HTTPAuthToken.Value() != "Http-T0ken-S3cret" {
		t.Error("HTTP token lost")
	}
	if got, want := scramFinals(t, c, scram.Auth{User: "orders-enricher", Pass: "Sup3r-S3cret-Jaas"}); got != want {
		t.Errorf("SCRAM password lost: client-final %q, want %q", got, want)
	}
}

// scramFinals runs the producer's SCRAM-SHA-512 exchange against a fixed
// server-first message, then ref's with the nonce the producer's mechanism
// chose, and returns both client-final messages.
func scramFinals(t *testing.T, c *Config, ref scram.Auth) (string, string) {
	t.Helper()
	var o ClientOption
	for _, op := range c.ClientOptions(Producer, testProcessID, 1).Options {
		if op.Option == "kgo.SASL" {
			o = op
		}
	}
	if o.build == nil {
		t.Fatal("producer has no kgo.SASL option")
	}
	cl, err := kgo.NewClient(append(mustBuild(t, o), kgo.SeedBrokers("127.0.0.1:1"))...)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	mechs, _ := cl.OptValue(kgo.SASL).([]sasl.Mechanism)
	if len(mechs) != 1 {
		t.Fatalf("SASL mechanisms %v", mechs)
	}
	mech := mechs[0]
	sess, first, err := mech.Authenticate(context.Background(), "broker")
	if err != nil {
		t.Fatal(err)
	}
	nonce := string(first[strings.Index(string(first), ",r=")+3:])
	raw, err := base64.RawStdEncoding.DecodeString(nonce)
	if err != nil {
		t.Fatal(err)
	}
	ref.Nonce = raw
	refSess, _, err := ref.AsSha512Mechanism().Authenticate(context.Background(), "broker")
	if err != nil {
		t.Fatal(err)
	}
	serverFirst := []byte("r=" + nonce + "srv,s=" + base64.StdEncoding.EncodeToString([]byte("fixed-salt")) + ",i=4096")
	var finals [2]string
	for i, s := range []sasl.Session{sess, refSess} {
		_, final, err := s.Challenge(serverFirst)
		if err != nil {
			t.Fatal(err)
		}
		finals[i] = string(final)
	}
	return finals[0], finals[1]
}

func mustBuild(t *testing.T, o ClientOption) []kgo.Opt {
	t.Helper()
	opts, err := o.build()
	if err != nil {
		t.Fatal(err)
	}
	return opts
}

// TestStreamsConfigBlockMatchesKafkaStreams compares the printed block with
// what Kafka Streams 4.4.0 itself logged for the same files (captured from
// StreamsConfig's start-up log into testdata/*.kafka-streams-4.4.0.log).
func TestStreamsConfigBlockMatchesKafkaStreams(t *testing.T) {
	files := map[string]string{
		"testdata/wordcount.properties":    "testdata/wordcount.kafka-streams-4.4.0.log", // a copy of examples/wordcount/streams.properties
		"testdata/sasl_ssl_eos.properties": "testdata/sasl_ssl_eos.kafka-streams-4.4.0.log",
		"testdata/minimal.properties":      "testdata/minimal.kafka-streams-4.4.0.log",
	}
	for props, logFile := range files {
		t.Run(filepath.Base(logFile), func(t *testing.T) {
			p, err := properties.ParseFile(props)
			if err != nil {
				t.Fatal(err)
			}
			c, _ := Load(p)
			var b strings.Builder
			c.WriteStreamsConfig(&b)
			got := strings.ReplaceAll(b.String(), filepath.Join(os.TempDir(), "kafka-streams"), "/tmp/kafka-streams")
			want, err := os.ReadFile(logFile)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
				for i := 0; i < len(gl) && i < len(wl); i++ {
					if gl[i] != wl[i] {
						t.Errorf("line %d:\n got %q\nwant %q", i+1, gl[i], wl[i])
					}
				}
				if len(gl) != len(wl) {
					t.Errorf("%d lines, Kafka Streams logged %d", len(gl), len(wl))
				}
			}
		})
	}
}

// FuzzLoad feeds arbitrary .properties text through Load and every printer:
// nothing may panic, and no error may lack its key.
func FuzzLoad(f *testing.F) {
	for _, s := range []string{base, "num.stream.threads=x\n", "processing.guarantee=exactly_once_v2\nproducer.max.in.flight.requests.per.connection=9\n",
		"sasl.jaas.config=x required a=\"b\n", "ssl.keystore.location=a.jks\n", "client.tag.a=b\nrack.aware.assignment.tags=a,b\n",
		"stoatflow.store..rocksdb.write-buffer-bytes=1\n", "application.server=http://\n", "consumer.auto.offset.reset=by_duration:x\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := properties.Parse("fuzz", []byte(src))
		if err != nil {
			return
		}
		c, diags := Load(p)
		var b strings.Builder
		c.WriteStreamsConfig(&b)
		c.WriteStoatFlowConfig(&b)
		c.WriteClientConfigs(&b, "pid")
		_ = c.Validate()
		for _, d := range diags {
			_ = d.String()
		}
	})
}
