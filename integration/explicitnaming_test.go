package integration

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/streams"
)

// namingTopology is the Go twin of the reference app explicitnaming
// (ExplicitNaming.java): the same operators in the same order, so that
// the generated names are the same.
func namingTopology(args map[string]string) (*kstreams.Topology, error) {
	b := kstreams.NewStreamsBuilder()
	in := kstreams.Stream[string, string](b, []string{args["input"]})
	byValue := func(_, v string) string { return v }
	counts := kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{})
	switch args["variant"] {
	case "named":
		kstreams.GroupBy(in, byValue, kstreams.Grouped[string, string]{Name: "by-value"}).
			Count(kstreams.MaterializedAs[string, int64]("counts")).ToStream().To(args["output"], counts)
	case "repartition":
		kstreams.SelectKey(in, byValue).Repartition().To(args["output"])
	case "store":
		in.GroupByKey().Count().ToStream().To(args["output"], counts)
	case "join":
		left := kstreams.SelectKey(in, byValue)
		right := kstreams.SelectKey(kstreams.Stream[string, string](b, []string{args["other"]}), byValue)
		kstreams.LeftJoin(left, right, func(l string, r *string) string {
			if r == nil {
				return l + "+null"
			}
			return l + "+" + *r
		}, kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(time.Minute),
			kstreams.StreamJoined[string, string, string]{KeySerde: serde.String{}, ValueSerde: serde.String{}, OtherValueSerde: serde.String{}}).
			To(args["output"])
	default:
		return nil, fmt.Errorf("unknown variant %q", args["variant"])
	}
	return b.Build()
}

// namingTableTopology is the table variant: a source table needs the
// builder before any stream, so it is built apart.
func namingTableTopology(args map[string]string) (*kstreams.Topology, error) {
	b := kstreams.NewStreamsBuilder()
	kstreams.Table(b, args["input"], kstreams.Consumed[string, string]{}).ToStream().To(args["output"])
	return b.Build()
}

// warnings records the messages of the WARN records logged through it.
type warnings struct {
	mu   *sync.Mutex
	msgs *[]string
}

func newWarnings() warnings { return warnings{mu: &sync.Mutex{}, msgs: &[]string{}} }

func (w warnings) Enabled(context.Context, slog.Level) bool { return true }

func (w warnings) Handle(_ context.Context, r slog.Record) error {
	if r.Level >= slog.LevelWarn {
		w.mu.Lock()
		*w.msgs = append(*w.msgs, r.Message)
		w.mu.Unlock()
	}
	return nil
}

func (w warnings) WithAttrs([]slog.Attr) slog.Handler { return w }
func (w warnings) WithGroup(string) slog.Handler      { return w }

func (w warnings) starting(prefix string) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for _, m := range *w.msgs {
		if strings.HasPrefix(m, prefix) {
			out = append(out, m)
		}
	}
	return out
}

// TestExplicitNamingMatchesKafkaStreams runs the topologies of
// ExplicitNaming.java on Kafka Streams 4.4 (its StreamsBuilder made with
// the application's TopologyConfig) and on StoatFlow, with
// ensure.explicit.internal.resource.naming=true: the one whose internal
// resources are all named starts on both; those with a generated
// repartition topic, a generated store and changelog, a join's generated
// topics and stores, and a source table's generated store are refused by
// both, StoatFlow's error carrying Kafka's message word for word (the same
// names in the same order). With the key false, the join starts on both and
// both log the same warning. Both give state.dir and the application
// directory the same modes: rwxrwx--- with allow.os.group.write.access=true,
// rwxr-x--- without.
func TestExplicitNamingMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	bootstrap := testkafka.Bootstrap(t)
	props := filepath.Join(root, "examples", "wordcount", "streams.properties")
	const warnPrefix = "Explicit naming for internal resources is currently disabled."
	for _, c := range []struct {
		variant    string
		ensure     bool
		groupWrite bool
		starts     bool
	}{
		{variant: "named", ensure: true, groupWrite: true, starts: true},
		{variant: "repartition", ensure: true},
		{variant: "store", ensure: true},
		{variant: "join", ensure: true},
		{variant: "table", ensure: true},
		{variant: "join", ensure: false, starts: true},
	} {
		t.Run(fmt.Sprintf("%s/ensure=%t", c.variant, c.ensure), func(t *testing.T) {
			in := testkafka.Topic(t, "in")
			other, out := in+"-other", in+"-out"
			testkafka.CreateTopics(t, bootstrap, 2, in, other, out)
			args := map[string]string{"variant": c.variant, "input": in, "other": other, "output": out}
			set := func(app, stateDir string) map[string]string {
				return map[string]string{
					"application.id": app, "bootstrap.servers": bootstrap, "state.dir": stateDir,
					compat.EnsureExplicitInternalResourceNamingConfig: fmt.Sprint(c.ensure),
					compat.AllowOSGroupWriteAccessConfig:              fmt.Sprint(c.groupWrite),
				}
			}
			jvmState, goState := filepath.Join(t.TempDir(), "jvm-state"), filepath.Join(t.TempDir(), "go-state")
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()

			ref, err := StartReference(ctx, ReferenceOptions{App: "explicitnaming", Configs: []string{props}, Set: set(in+"-jvm", jvmState), Args: args})
			if err != nil {
				t.Fatal(err)
			}
			defer ref.Stop(45 * time.Second)
			jvmErr := ref.WaitState(ctx, "RUNNING")

			cfg, err := LoadConfig([]string{props}, set(in+"-go", goState))
			if err != nil {
				t.Fatal(err)
			}
			logs := newWarnings()
			build := namingTopology
			if c.variant == "table" {
				build = namingTableTopology
			}
			ks, goErr := StartStoatFlow(ctx, build, args, cfg, streams.WithLogger(slog.New(logs)))
			if ks != nil {
				defer ks.Close(context.Background())
			}

			if !c.starts {
				errs := ref.Errors()
				const exception = "org.apache.kafka.streams.errors.TopologyException: "
				if jvmErr == nil || len(errs) != 1 || !strings.HasPrefix(errs[0], exception) {
					t.Fatalf("Kafka Streams: %v, errors %q; want it to refuse the topology when built", jvmErr, errs)
				}
				kafka := strings.TrimSuffix(strings.ReplaceAll(strings.TrimPrefix(errs[0], exception), `\n`, "\n"), "\n")
				var ue *kstreams.UnnamedResourcesError
				if !errors.As(goErr, &ue) {
					t.Fatalf("StoatFlow: %v; want it refused as Kafka Streams refuses it:\n%s", goErr, kafka)
				}
				if ue.Error() != kafka {
					t.Errorf("StoatFlow refuses with\n%s\nKafka Streams with\n%s", ue.Error(), kafka)
				}
				if !strings.Contains(goErr.Error(), compat.EnsureExplicitInternalResourceNamingConfig+"=false") {
					t.Errorf("StoatFlow's error does not say how to run anyway: %v", goErr)
				}
				return
			}
			if jvmErr != nil {
				t.Fatalf("Kafka Streams: %v", jvmErr)
			}
			if goErr != nil {
				t.Fatalf("StoatFlow: %v", goErr)
			}
			goWarn := logs.starting(warnPrefix)
			switch jvmWarned := strings.Contains(ref.Log(), warnPrefix); {
			case c.ensure && (jvmWarned || len(goWarn) > 0):
				t.Errorf("a warning of unnamed resources for a topology with every name given: Kafka Streams %t, StoatFlow %q", jvmWarned, goWarn)
			case !c.ensure && len(goWarn) != 1:
				t.Errorf("StoatFlow logged %d warnings of unnamed resources, want 1: %q", len(goWarn), goWarn)
			case !c.ensure && !strings.Contains(ref.Log(), goWarn[0]+"\n"):
				t.Errorf("StoatFlow warns\n%s\nwhich Kafka Streams' log does not hold:\n%s", goWarn[0], ref.Log())
			}
			want := os.FileMode(0o750)
			if c.groupWrite {
				want = 0o770
			}
			for _, dir := range []struct{ engine, root, app string }{
				{"Kafka Streams", jvmState, in + "-jvm"}, {"StoatFlow", goState, in + "-go"},
			} {
				for _, p := range []string{dir.root, filepath.Join(dir.root, dir.app)} {
					fi, err := os.Stat(p)
					if err != nil {
						t.Fatalf("%s: %v", dir.engine, err)
					}
					if fi.Mode().Perm() != want {
						t.Errorf("%s: %s has mode %v, want %v", dir.engine, p, fi.Mode().Perm(), want)
					}
				}
			}
		})
	}
}
