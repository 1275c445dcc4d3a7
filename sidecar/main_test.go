package sidecar

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/examples/passthrough"
	"github.com/stoatflow/stoatflow/examples/sessioncount"
	"github.com/stoatflow/stoatflow/examples/twostores"
	"github.com/stoatflow/stoatflow/examples/windowedcount"
	"github.com/stoatflow/stoatflow/examples/wordcount"
)

// examples are the topologies cmd/sidecar runs.
var examples = Topologies{
	passthrough.Name:   passthrough.Build,
	sessioncount.Name:  sessioncount.Build,
	twostores.Name:     twostores.Build,
	windowedcount.Name: windowedcount.Build,
	wordcount.Name:     wordcount.Build,
}

func runArgs(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	return runWith(t, examples, args...)
}

// runWith runs args with topologies. A command given a --config file keeps
// its state under a temporary directory unless args set state.dir: config
// and run create it.
func runWith(t *testing.T, topologies Topologies, args ...string) (string, string, error) {
	t.Helper()
	if slices.Contains(args, "--config") && !slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "state.dir=") }) {
		args = append(slices.Clone(args), "--set", "state.dir="+t.TempDir())
	}
	var out, errOut bytes.Buffer
	err := Run(context.Background(), topologies, args, &out, &errOut)
	return out.String(), errOut.String(), err
}

func TestConfigPrintsWordcountBlock(t *testing.T) {
	out, stderr, err := runArgs(t, "config", "--config", "../examples/wordcount/streams.properties")
	if err != nil {
		t.Fatalf("err %v\n%s", err, stderr)
	}
	for _, want := range []string{"StreamsConfig values: \n", "\tapplication.id = streams-wordcount\n", "\tcommit.interval.ms = 100\n",
		"\tprocessing.guarantee = exactly_once_v2\n", "\tstoatflow.topology = wordcount\n", "franz-go producer (StreamThread-1) options: \n",
		"\tkgo.FetchIsolationLevel = read_committed  (processing.guarantee)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if stderr != "" {
		t.Errorf("unexpected findings:\n%s", stderr)
	}
}

func TestConfigErrorsExitNonZero(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "bad.properties")
	os.WriteFile(f, []byte("bootstrap.servers=localhost:9092\nnum.stream.threads=four\nfoo=bar\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"TopS3cret\";\n"), 0o644)
	out, stderr, err := runArgs(t, "config", "--config", f, "--set", "max.warmup.replicas=0")
	if !errors.Is(err, errRefused) || ExitCode(err, &bytes.Buffer{}) != 2 {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{
		`error: Missing required configuration "application.id" which has no default value.`,
		f + ":2: error: Invalid value four for configuration num.stream.threads: Not a number of type INT",
		f + ":3: warning: The configuration 'foo' was supplied but isn't a known config.",
		"--set #1: error: Invalid value 0 for configuration max.warmup.replicas: Value must be at least 1",
		"error: stoatflow.topology is not set; set it to the name of the topology to run: passthrough, sessioncount, twostores, windowedcount, wordcount",
		"configuration has errors (4)",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if !strings.Contains(out, "\tnum.stream.threads = <invalid: see the errors>\n") || !strings.Contains(out, "\tmax.warmup.replicas = <invalid: see the errors>\n") {
		t.Errorf("refused values not marked:\n%s", out)
	}
	if strings.Contains(stderr+out, "TopS3cret") {
		t.Error("secret printed")
	}
}

func TestConfigSecretsMasked(t *testing.T) {
	// The file names a topology and stores this binary and machine do not
	// have: refused, with every block printed all the same.
	out, stderr, err := runArgs(t, "config", "--config", "../compat/testdata/sasl_ssl_eos.properties", "--set", "stoatflow.http.auth-token=Cli-T0ken")
	if !errors.Is(err, errRefused) || !strings.Contains(stderr, "ssl.truststore.location: cannot read the PEM trust store /etc/kafka/tls/ca.pem") {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, s := range []string{"Sup3r-S3cret-Jaas", "Keyst0re-S3cret", "K3y-S3cret", "Http-T0ken-S3cret", "Cli-T0ken"} {
		if strings.Contains(out+stderr, s) {
			t.Errorf("secret %q printed", s)
		}
	}
	if !strings.Contains(out, "\tkgo.SASL = SCRAM-SHA-512 user orders-enricher password [hidden]  (sasl.mechanism, sasl.jaas.config)\n") || !strings.Contains(out, "\tstoatflow.http.auth-token = [hidden]\n") {
		t.Error("secrets not shown as [hidden]")
	}
}

// TestConfigHidesRegistryUserInfo: a JVM application's file naming
// SpecificAvroSerde with basic.auth.user.info prints the registry block
// with the user info hidden, and nothing else shows it.
func TestConfigHidesRegistryUserInfo(t *testing.T) {
	file := filepath.Join(t.TempDir(), "avro.properties")
	src := "application.id=avro-app\nbootstrap.servers=127.0.0.1:9092\n" +
		"default.value.serde=io.confluent.kafka.streams.serdes.avro.SpecificAvroSerde\n" +
		"schema.registry.url=https://registry.example:8081\nbasic.auth.credentials.source=USER_INFO\n" +
		"basic.auth.user.info=svc:Regi5try-S3cret\nstoatflow.topology=wordcount\n"
	if err := os.WriteFile(file, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := runArgs(t, "config", "--config", file)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if strings.Contains(out+stderr, "Regi5try-S3cret") {
		t.Error("basic.auth.user.info printed")
	}
	for _, want := range []string{"SchemaRegistryConfig values: \n", "\tbasic.auth.user.info = [hidden]\n",
		"\tschema.registry.url = https://registry.example:8081\n", "\tbasic.auth.credentials.source = USER_INFO\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	// A bad user info is an error that names the key, not its value.
	if err := os.WriteFile(file, []byte(strings.Replace(src, "svc:Regi5try-S3cret", "Regi5try-S3cret", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, err = runArgs(t, "config", "--config", file)
	if err == nil || !strings.Contains(stderr, "avro.properties:6: error") || strings.Contains(out+stderr, "Regi5try-S3cret") {
		t.Errorf("bad user info: %v\n%s", err, stderr)
	}
}

func TestUsageAndVersion(t *testing.T) {
	out, _, err := runArgs(t, "version")
	if err != nil || !strings.HasPrefix(out, "stoatflow sidecar "+version) {
		t.Errorf("version: %q %v", out, err)
	}
	if _, _, err := runArgs(t); !errors.Is(err, errUsage) {
		t.Errorf("no args: %v", err)
	}
	if _, stderr, err := runArgs(t, "nope"); !errors.Is(err, errUsage) || !strings.Contains(stderr, "config") {
		t.Errorf("unknown command: %v %q", err, stderr)
	}
	if _, _, err := runArgs(t, "config"); !errors.Is(err, errUsage) {
		t.Errorf("config without files: %v", err)
	}
	if _, _, err := runArgs(t, "config", "--bogus"); !errors.Is(err, errUsage) {
		t.Errorf("bad flag: %v", err)
	}
	if _, stderr, err := runArgs(t, "config", "--config", "/does/not/exist"); !errors.Is(err, errRefused) || !strings.Contains(stderr, "/does/not/exist") {
		t.Errorf("missing file: %v %q", err, stderr)
	}
}

func TestConfigProviderAndSyntaxErrorsArePositioned(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "p.properties")
	os.WriteFile(f, []byte("application.id=a\nbootstrap.servers=b:1\nstoatflow.topology=wordcount\nconfig.providers=env\n"+
		"config.providers.env.class=org.apache.kafka.common.config.provider.EnvVarConfigProvider\n"+
		"client.id=${env:STOATFLOW_TEST_SURELY_UNSET}\n"), 0o644)
	_, stderr, err := runArgs(t, "config", "--config", f)
	if !errors.Is(err, errRefused) || !strings.Contains(stderr, f+":6: error: client.id: cannot resolve ${env:STOATFLOW_TEST_SURELY_UNSET}: environment variable STOATFLOW_TEST_SURELY_UNSET is not set; export it before starting") {
		t.Errorf("provider error: %v\n%s", err, stderr)
	}
	t.Setenv("STOATFLOW_TEST_SET", "from-env")
	os.WriteFile(f, []byte("application.id=a\nbootstrap.servers=b:1\nstoatflow.topology=wordcount\nconfig.providers=env\n"+
		"config.providers.env.class=org.apache.kafka.common.config.provider.EnvVarConfigProvider\n"+
		"client.id=${env:STOATFLOW_TEST_SET}\n"), 0o644)
	out, stderr, err := runArgs(t, "config", "--config", f)
	if err != nil || !strings.Contains(out, "\tclient.id = from-env\n") || !strings.Contains(out, "\tkgo.ClientID = from-env-admin  (client.id)\n") {
		t.Errorf("resolved: %v\n%s", err, stderr)
	}
	os.WriteFile(f, []byte("application.id=a\nbootstrap.servers=b:1\nx=\\u00zz\n"), 0o644)
	_, stderr, err = runArgs(t, "config", "--config", f)
	if !errors.Is(err, errRefused) || !strings.Contains(stderr, f+":3: error: Malformed \\uxxxx encoding.") {
		t.Errorf("syntax error: %v\n%s", err, stderr)
	}
}
