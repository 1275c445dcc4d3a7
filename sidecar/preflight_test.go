package sidecar

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/state"
)

// runFile writes lines to p.properties in a temporary directory, after an
// application.id, an unroutable broker, a state.dir of its own and an HTTP
// port of the system's choosing (lines 1 to 4), and runs command on it with
// examples and a crash-test topology left unlisted.
func runFile(t *testing.T, dir, command string, lines ...string) (file, stderr string, code int) {
	t.Helper()
	file = filepath.Join(dir, "p.properties")
	src := "application.id=a\nbootstrap.servers=10.255.255.1:9092\nstoatflow.http.listen=127.0.0.1:0\n"
	if !strings.HasPrefix(strings.Join(lines, "\n"), "state.dir=") {
		src += "state.dir=" + filepath.Join(dir, "state") + "\n"
	}
	if err := os.WriteFile(file, []byte(src+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	topologies := Topologies{wordcountcrash: wordcount.Build}
	for n, f := range examples {
		topologies[n] = f
	}
	var out, errOut bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := Run(ctx, topologies, []string{command, "--config", file}, &out, &errOut, WithUnlistedTopologies(wordcountcrash))
	code = ExitCode(err, &errOut)
	return file, errOut.String(), code
}

// wordcountcrash stands for a topology that exists for tests.
const wordcountcrash = "wordcountcrash"

// TestConfigRefusesWhatRunRefuses: each input run refuses before it
// connects is refused by config too, with the same message on the line of
// the key that causes it (exit 2 for config, 1 for run), and run never
// reaches the broker. docs/sidecar.md's table lists these rows.
func TestConfigRefusesWhatRunRefuses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines func(dir string) []string
		want  func(file, dir string) string // the line both print
		never string                        // what neither prints
	}{
		{"topology misspelled",
			func(string) []string { return []string{"stoatflow.topology=wordcuont"} },
			func(f, _ string) string {
				return f + ":5: error: stoatflow.topology = wordcuont is not a topology of this binary; did you mean wordcount? (`sidecar help` lists them all)"
			}, wordcountcrash},
		{"topology unknown",
			func(string) []string { return []string{"stoatflow.topology=orders-enricher"} },
			func(f, _ string) string {
				return f + ":5: error: stoatflow.topology = orders-enricher is not a topology of this binary; set it to one of passthrough, sessioncount, twostores, windowedcount, wordcount"
			}, wordcountcrash},
		{"topology unset",
			func(string) []string { return nil },
			func(string, string) string {
				return "error: stoatflow.topology is not set; set it to the name of the topology to run: passthrough, sessioncount, twostores, windowedcount, wordcount"
			}, wordcountcrash},
		{"trust store missing",
			func(d string) []string {
				return []string{"stoatflow.topology=wordcount", "security.protocol=SSL", "ssl.truststore.location=" + d + "/ca.jks"}
			},
			func(f, d string) string {
				return f + ":7: error: ssl.truststore.location: cannot read the JKS trust store " + d + "/ca.jks; give the path of a JKS trust store the process can read, with its password in ssl.truststore.password (open " + d + "/ca.jks: no such file or directory)"
			}, ""},
		{"registry trust store missing",
			func(d string) []string {
				return []string{"stoatflow.topology=wordcount", "default.value.serde=io.confluent.kafka.streams.serdes.avro.GenericAvroSerde",
					"schema.registry.url=https://registry.example:8081", "schema.registry.ssl.truststore.location=" + d + "/registry.jks"}
			},
			func(f, d string) string {
				return f + ":8: error: schema.registry.ssl.truststore.location: cannot read the JKS trust store " + d + "/registry.jks; give the path of a JKS trust store the process can read, with its password in schema.registry.ssl.truststore.password (open " + d + "/registry.jks: no such file or directory)"
			}, ""},
		{"PEM key store unreadable",
			func(d string) []string {
				os.WriteFile(d+"/client.pem", []byte("not PEM\n"), 0o600)
				return []string{"stoatflow.topology=wordcount", "security.protocol=SSL", "ssl.keystore.type=PEM", "ssl.keystore.location=" + d + "/client.pem"}
			},
			func(f, d string) string {
				return f + ":8: error: ssl.keystore.location: cannot read the PEM key store " + d + "/client.pem; give the path of a PEM key store the process can read, with its passwords in ssl.keystore.password and ssl.key.password ("
			}, ""},
		{"keytab missing",
			func(d string) []string {
				return []string{"stoatflow.topology=wordcount", "security.protocol=SASL_PLAINTEXT", "sasl.mechanism=GSSAPI", "sasl.kerberos.service.name=kafka",
					`sasl.jaas.config=com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true keyTab="` + d + `/app.keytab" principal="app@EXAMPLE.TEST";`}
			},
			func(f, d string) string {
				return f + ":9: error: sasl.jaas.config: cannot read the Kerberos keytab " + d + "/app.keytab; give keyTab=\"...\" in sasl.jaas.config the path of a keytab the process can read (ktutil or kadmin makes one) ("
			}, ""},
		{"OAUTHBEARER token file missing",
			func(d string) []string {
				return []string{"stoatflow.topology=wordcount", "security.protocol=SASL_SSL", "sasl.mechanism=OAUTHBEARER",
					"sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;",
					"sasl.oauthbearer.token.endpoint.url=file://" + d + "/token"}
			},
			func(f, d string) string {
				return f + ":9: error: sasl.oauthbearer.token.endpoint.url: cannot read the OAUTHBEARER token file " + d + "/token; give a file: URL of a file the process can read, holding the token your identity provider issued (open " + d + "/token: no such file or directory)"
			}, ""},
		{"HTTP certificate missing",
			func(d string) []string {
				os.WriteFile(d+"/http.key", []byte("key\n"), 0o600)
				return []string{"stoatflow.topology=wordcount", "stoatflow.http.tls.cert-file=" + d + "/http.crt", "stoatflow.http.tls.key-file=" + d + "/http.key"}
			},
			func(f, d string) string {
				return f + ":6: error: stoatflow.http.tls.cert-file: cannot read the HTTP server certificate " + d + "/http.crt; give the path of a PEM certificate that matches stoatflow.http.tls.key-file (open " + d + "/http.crt: no such file or directory)"
			}, ""},
		{"file config provider's file missing",
			func(d string) []string {
				return []string{"stoatflow.topology=wordcount", "config.providers=file",
					"config.providers.file.class=org.apache.kafka.common.config.provider.FileConfigProvider",
					"sasl.jaas.config=${file:" + d + "/jaas.properties:jaas}"}
			},
			func(f, d string) string {
				return f + ":8: error: sasl.jaas.config: cannot resolve ${file:" + d + "/jaas.properties:jaas}: cannot read " + d + "/jaas.properties; give the path of a properties file the process can read (open " + d + "/jaas.properties: no such file or directory)"
			}, "sasl.jaas.config cannot be read"},
		{"directory config provider's file missing",
			func(d string) []string {
				return []string{"stoatflow.topology=wordcount", "config.providers=dir",
					"config.providers.dir.class=org.apache.kafka.common.config.provider.DirectoryConfigProvider",
					"stoatflow.http.auth-token=${dir:" + d + ":token}"}
			},
			func(f, d string) string {
				return f + ":8: error: stoatflow.http.auth-token: cannot resolve ${dir:" + d + ":token}: " + d + "/token is not a regular file; give a directory holding a file token (as a Kubernetes Secret mounted as a volume does)"
			}, ""},
		{"state.dir cannot be created",
			func(d string) []string {
				os.WriteFile(d+"/file", nil, 0o644)
				return []string{"state.dir=" + d + "/file/state", "stoatflow.topology=wordcount"}
			},
			func(f, d string) string {
				return f + ":4: error: state.dir = " + d + "/file/state: cannot create the state directory " + d + "/file/state/a; set state.dir to a directory the process can create and write: " + d + "/file is not a directory (mkdir " + d + "/file: not a directory)"
			}, ""},
		{"application.id cannot name a directory",
			func(string) []string { return []string{"stoatflow.topology=wordcount", "application.id=team/app"} },
			func(f, _ string) string {
				return f + `:6: error: application.id = team/app cannot name the application's directory in state.dir; leave / and \ out of it (state: invalid argument: application.id "team/app" cannot name a directory)`
			}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, command := range []string{"config", "run"} {
				dir := t.TempDir()
				start := time.Now()
				file, stderr, code := runFile(t, dir, command, tc.lines(dir)...)
				want := tc.want(file, dir)
				if wantCode := map[string]int{"config": 2, "run": 1}[command]; code != wantCode || !strings.Contains(stderr, want) {
					t.Errorf("%s: exit %d, want %d and\n%s\nstderr:\n%s", command, code, wantCode, want, stderr)
				}
				if tc.never != "" && strings.Contains(stderr, tc.never) {
					t.Errorf("%s names %s:\n%s", command, tc.never, stderr)
				}
				if d := time.Since(start); d > 5*time.Second {
					t.Errorf("%s took %v: it tried to connect", command, d)
				}
				if entries, _ := filepath.Glob(filepath.Join(dir, "state", "a", ".stoatflow-probe-*")); len(entries) > 0 {
					t.Errorf("%s left %v", command, entries)
				}
			}
		})
	}
}

// TestConfigPassesWhatRunAccepts: config creates the state directory as
// run would and leaves nothing in it; a readable trust store passes.
func TestConfigPassesWhatRunAccepts(t *testing.T) {
	dir := t.TempDir()
	_, stderr, code := runFile(t, dir, "config", "stoatflow.topology="+wordcountcrash)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "state", "a"))
	if err != nil || len(entries) != 0 {
		t.Errorf("state directory: %v %v", entries, err)
	}
}

// TestRunStartFailureNamesStateDir: a state directory another instance
// holds fails run at start-up with state.dir's line, what to do, and the
// library's error last.
func TestRunStartFailureNamesStateDir(t *testing.T) {
	dir := t.TempDir()
	held, err := state.NewDirectory(filepath.Join(dir, "state"), "a")
	if err != nil {
		t.Fatal(err)
	}
	if err := held.Lock(); err != nil {
		t.Fatal(err)
	}
	defer held.Unlock()
	file, stderr, code := runFile(t, dir, "run", "stoatflow.topology=wordcount")
	want := file + ":4: error: state.dir = " + dir + "/state: cannot lock the state directory " + dir + "/state/a; stop the other instance, or give each instance its own state.dir (streams: "
	if code != 1 || !strings.Contains(stderr, want) || !strings.Contains(stderr, state.ErrLocked.Error()) {
		t.Errorf("exit %d, stderr:\n%s\nwant %s", code, stderr, want)
	}
}

// TestExplainStartNamesTheKey: start-up errors of the state directory's
// creation and of the client's files are told on their keys' lines; any
// other error is returned as it was, wrapped.
func TestExplainStartNamesTheKey(t *testing.T) {
	dir := t.TempDir()
	cfg, diags := compat.LoadFiles(nil, []string{"application.id=a", "bootstrap.servers=b:9092", "state.dir=" + dir,
		"security.protocol=SSL", "ssl.truststore.location=" + dir + "/gone.jks"}, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	_, mkdirErr := os.ReadDir(filepath.Join(dir, "missing"))
	for _, tc := range []struct {
		err  error
		want string
	}{
		{errors.Join(errors.New("streams: start failed"), mkdirErr),
			"--set #3: error: state.dir = " + dir + ": cannot create or write to the state directory " + dir + "/a; set state.dir to a directory"},
		// The start-up chain an operator saw before: a permission the
		// preflight could not have checked (it ran as another user, or
		// the directory changed since).
		{fmt.Errorf("streams: start failed: %w", fmt.Errorf("state: create state directory: %w",
			&fs.PathError{Op: "mkdir", Path: dir + "/a", Err: syscall.EACCES})),
			"--set #3: error: state.dir = " + dir + ": cannot create or write to the state directory " + dir + "/a; " +
				"set state.dir to a directory the process can create and write, or give its user write access to " + dir +
				" (streams: start failed: state: create state directory: mkdir " + dir + "/a: permission denied)"},
		{errors.New("compat: producer (StreamThread-1): ssl.truststore.location: open"),
			"--set #5: error: ssl.truststore.location: cannot read the JKS trust store " + dir + "/gone.jks;"},
	} {
		err := explainStart(cfg, tc.err)
		if !strings.HasPrefix(err.Error(), tc.want) || !errors.Is(err, tc.err) {
			t.Errorf("explainStart(%v) = %v, want %s", tc.err, err, tc.want)
		}
	}
	os.WriteFile(dir+"/gone.jks", nil, 0o644)
	cfg, _ = compat.LoadFiles(nil, []string{"application.id=a", "bootstrap.servers=b:9092", "state.dir=" + dir}, nil)
	other := errors.New("streams: something else")
	if err := explainStart(cfg, other); !errors.Is(err, other) || err.Error() != "sidecar: starting : streams: something else" {
		t.Errorf("other error: %v", err)
	}
}

// TestCommandLineMistakesPrintTheUsage: an unknown flag, a flag without
// its argument, a --set or --arg without "=", a stray argument and an
// unknown subcommand exit 2 with the command's usage line, never the
// file-syntax hint.
func TestCommandLineMistakesPrintTheUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"config", "--bogus"}, []string{"flag provided but not defined: -bogus", "usage: " + usageLines["config"]}},
		{[]string{"run", "--config"}, []string{"flag needs an argument: -config", "usage: " + usageLines["run"]}},
		{[]string{"config", "--config", "../examples/wordcount/streams.properties", "--set", "num.stream.threads"},
			[]string{`invalid value "num.stream.threads" for flag -set: want name=value`, "usage: " + usageLines["config"]}},
		{[]string{"run", "--config", "../examples/wordcount/streams.properties", "--arg", "input"},
			[]string{`invalid value "input" for flag -arg: want name=value`, "usage: " + usageLines["run"]}},
		{[]string{"describe", "../examples/wordcount/streams.properties"},
			[]string{`sidecar describe: unexpected argument "../examples/wordcount/streams.properties"; give files with --config`, "usage: " + usageLines["describe"]}},
		{[]string{"run"}, []string{"sidecar run: give at least one --config FILE", "usage: " + usageLines["run"]}},
		{[]string{"rnu"}, []string{`sidecar: unknown command "rnu"`, "usage: sidecar <command> [flags]"}},
		{[]string{"config", "--config", "../examples/wordcount/streams.properties", "--process-id", "4"},
			[]string{"sidecar config: --process-id 4 is not a UUID; give one such as 00000000-0000-0000-0000-000000000000, or leave the flag out", "usage: " + usageLines["config"]}},
		{[]string{"demo", "extra"}, []string{`sidecar demo: unexpected argument "extra"`, "usage: " + usageLines["demo"]}},
		{[]string{"version", "--short"}, []string{"flag provided but not defined: -short", "usage: " + usageLines["version"]}},
	} {
		var errOut bytes.Buffer
		err := Run(context.Background(), examples, tc.args, &bytes.Buffer{}, &errOut)
		stderr := errOut.String()
		if code := ExitCode(err, &bytes.Buffer{}); code != 2 || strings.Contains(stderr, "check the file name") {
			t.Errorf("%v: exit %d, stderr:\n%s", tc.args, code, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: stderr lacks %q:\n%s", tc.args, w, stderr)
			}
		}
	}
}

// TestClosestSuggestsOnlyNearNames: a name is suggested only within an
// edit distance of a third of the mistaken name's length (at least 2), and
// only the nearest, at most three.
func TestClosestSuggestsOnlyNearNames(t *testing.T) {
	names := []string{"fkjoin", "joins", "joint", "ttl", "windowedcount", "windowedcountfinal", "wordcount"}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"zzz", nil},
		{"wrdcount", []string{"wordcount"}},
		{"WordCount", []string{"wordcount"}},
		{"fkjoincrsh", nil},
		{"join", []string{"joins", "joint"}},
		{"fkjoins", []string{"fkjoin"}},
		{"joinz", []string{"joins", "joint"}},
		{"windowcount", []string{"windowedcount"}},
	} {
		if got := closest(tc.name, names); !slices.Equal(got, tc.want) {
			t.Errorf("closest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestUnknownTopologyAmongManyPointsToHelp: a binary with more than ten
// topologies answers a stoatflow.topology close to none of them with the
// number help lists, not the list.
func TestUnknownTopologyAmongManyPointsToHelp(t *testing.T) {
	many := Topologies{wordcountcrash: wordcount.Build}
	for i := range 11 {
		many[fmt.Sprintf("topology%02d", i)] = wordcount.Build
	}
	file := filepath.Join(t.TempDir(), "p.properties")
	os.WriteFile(file, []byte("application.id=a\nbootstrap.servers=b:9092\nstoatflow.topology=orders-enricher\n"), 0o644)
	var errOut bytes.Buffer
	err := Run(context.Background(), many, []string{"config", "--config", file, "--set", "state.dir=" + t.TempDir()}, &bytes.Buffer{}, &errOut, WithUnlistedTopologies(wordcountcrash))
	stderr := errOut.String()
	want := file + ":3: error: stoatflow.topology = orders-enricher is not a topology of this binary; set it to one of the 11 that `sidecar help` lists"
	if code := ExitCode(err, &bytes.Buffer{}); code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant %s", code, stderr, want)
	}
}

// TestHelpLeavesOutUnlistedTopologies: help names the listed topologies
// only, and an unlisted name that is no topology is the program's mistake.
func TestHelpLeavesOutUnlistedTopologies(t *testing.T) {
	var errOut bytes.Buffer
	err := Run(context.Background(), Topologies{"upper": upper, wordcountcrash: wordcount.Build}, []string{"help"}, &bytes.Buffer{}, &errOut, WithUnlistedTopologies(wordcountcrash))
	if err != nil || !strings.HasSuffix(errOut.String(), "\ntopologies (stoatflow.topology): upper\n") {
		t.Errorf("help: %v\n%s", err, errOut.String())
	}
	if err := Run(context.Background(), Topologies{"upper": upper}, []string{"version"}, &bytes.Buffer{}, &bytes.Buffer{}, WithUnlistedTopologies("nope")); err == nil {
		t.Error("an unlisted name that is no topology was accepted")
	}
}

// TestRunRefusesUnnamedResourcesOnTheKeysLine: the word count leaves its
// store, changelog and repartition topic to generated names, so with
// ensure.explicit.internal.resource.naming=true run stops before it
// connects, on the key's line, with Kafka Streams 4.4's message and how to
// name them.
func TestRunRefusesUnnamedResourcesOnTheKeysLine(t *testing.T) {
	dir := t.TempDir()
	file, stderr, code := runFile(t, dir, "run", "stoatflow.topology=wordcount", "ensure.explicit.internal.resource.naming=true")
	want := file + ":6: error: ensure.explicit.internal.resource.naming = true: topology wordcount leaves internal resources to generated names, " +
		"which Kafka Streams 4.4 refuses too: Invalid topology: " +
		"Following changelog topic(s) has not been named: KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog\n" +
		"Following state store(s) has not been named: KSTREAM-AGGREGATE-STATE-STORE-0000000003\n" +
		"Following repartition topic(s) has not been named: KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition; " +
		"give each state store a Materialized name"
	if code != 1 || !strings.Contains(stderr, want) || !strings.Contains(stderr, "or set ensure.explicit.internal.resource.naming=false") {
		t.Errorf("exit %d, stderr:\n%s\nwant %s", code, stderr, want)
	}
}

// TestRunStartFailureNamesHTTPListen: an HTTP listen address another
// process holds fails run at start-up on stoatflow.http.listen's line,
// with what to do and the system's error last.
func TestRunStartFailureNamesHTTPListen(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	addr := held.Addr().String()
	dir := t.TempDir()
	file, stderr, code := runFile(t, dir, "run", "stoatflow.topology=wordcount", "stoatflow.http.listen="+addr)
	want := file + ":6: error: stoatflow.http.listen = " + addr + ": cannot listen; another process listens there (another instance on this host?); " +
		"stop it, or set stoatflow.http.listen to a free port (listen tcp " + addr + ": bind: address already in use)"
	if code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant %s", code, stderr, want)
	}
}

// TestConfigRefusesAStateDirWithoutPermission: a state.dir the process may
// not create (under /sys, which refuses root too) is refused by config
// and run on state.dir's line, naming the nearest existing directory to
// give the process write access to.
func TestConfigRefusesAStateDirWithoutPermission(t *testing.T) {
	if fi, err := os.Stat("/sys"); err != nil || !fi.IsDir() {
		t.Skip("no /sys to refuse a directory")
	}
	for command, wantCode := range map[string]int{"config": 2, "run": 1} {
		file, stderr, code := runFile(t, t.TempDir(), command, "state.dir=/sys/stoatflow-state", "stoatflow.topology=wordcount")
		want := file + ":4: error: state.dir = /sys/stoatflow-state: cannot create the state directory /sys/stoatflow-state/a; " +
			"set state.dir to a directory the process can create and write, or give its user write access to /sys (mkdir /sys/stoatflow-state: "
		if code != wantCode || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, want %d and\n%s\nstderr:\n%s", command, code, wantCode, want, stderr)
		}
	}
}
