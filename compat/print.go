package compat

import (
	"io"
	"log/slog"
	"sort"
	"strings"
)

// WriteStreamsConfig writes the configuration in the format of Kafka's
// AbstractConfig.logAll, so it can be diffed against a JVM application's
// start-up log: the line "StreamsConfig values: ", then one line
// "\t<key> = <value>" per StreamsConfig key in sorted order, each ending in a
// newline. Values are the effective ones, rendered as Java prints them (null,
// [a, b], class <name>); commit.interval.ms shows 100 under exactly_once_v2, and
// client.id shows what was configured ("" when derived), both as Kafka logs them.
//
// A key whose value was refused (see the Diagnostics) shows as
// "<invalid: see the errors>" instead of a value.
func (c *Config) WriteStreamsConfig(w io.Writer) error {
	return writeBlock(w, "StreamsConfig", streamsKeys, c.values, c.invalid)
}

// WriteStoatFlowConfig writes the stoatflow.* keys in the same format, under
// "StoatFlowConfig values: ". Secrets show as [hidden].
func (c *Config) WriteStoatFlowConfig(w io.Writer) error {
	vals := map[string]Value{}
	keys := append([]*Key(nil), stoatflowKeys...)
	for k, v := range c.values {
		vals[k] = v
	}
	perStore := func(name string, n int64) {
		keys = append(keys, &Key{Name: name, Type: TypeLong})
		vals[name] = Value{Type: TypeLong, Int: n}
	}
	for store, n := range c.StoreWriteBufferBytes {
		perStore(StoreWriteBufferKey(store), n)
	}
	for store, n := range c.StoreFlushMaxLagRecords {
		perStore(StoreFlushMaxLagRecordsKey(store), n)
	}
	for store, d := range c.StoreFlushMaxLag {
		perStore(StoreFlushMaxLagMsKey(store), d.Milliseconds())
	}
	return writeBlock(w, "StoatFlowConfig", keys, vals, c.invalid)
}

// invalidMark stands in for a refused value in the printed blocks.
const invalidMark = "<invalid: see the errors>"

func writeBlock(w io.Writer, name string, keys []*Key, vals map[string]Value, invalid map[string]bool) error {
	var b strings.Builder
	b.WriteString(name + " values: \n")
	sorted := append([]*Key(nil), keys...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	for _, k := range sorted {
		v, ok := vals[k.Name]
		if !ok {
			v = k.DefaultValue()
		}
		s := v.JavaString()
		if invalid[k.Name] {
			s = invalidMark
		}
		b.WriteString("\t" + k.Name + " = " + s + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteClientConfigs writes the franz-go options of every client the runtime
// creates, for processID, with secrets hidden: thread 1's main consumer,
// restore consumer and producer (the other threads' differ only in their ids)
// and the admin client, each option with the key it came from. They are built
// by the same functions as the options the runtime passes to the clients.
// There is no global consumer block: without global stores no global thread
// runs.
func (c *Config) WriteClientConfigs(w io.Writer, processID string) error {
	for i, o := range []ClientOptions{
		c.ClientOptions(MainConsumer, processID, 1),
		c.ClientOptions(RestoreConsumer, processID, 1),
		c.ClientOptions(Producer, processID, 1),
		c.ClientOptions(Admin, processID, 0),
	} {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if _, err := o.WriteTo(w); err != nil {
			return err
		}
	}
	return nil
}

// String renders the StreamsConfig and StoatFlowConfig blocks; it never
// contains a secret. It has a value receiver so that printing a Config or a
// *Config with any fmt verb goes through it rather than through the fields.
func (c Config) String() string {
	var b strings.Builder
	_ = c.WriteStreamsConfig(&b)
	_ = c.WriteStoatFlowConfig(&b)
	return b.String()
}

// GoString is String, so %#v cannot reach the secrets in the fields either.
func (c Config) GoString() string { return c.String() }

// LogValue renders the Config for slog without its secrets.
func (c Config) LogValue() slog.Value { return slog.StringValue(c.String()) }

// String is JavaString: a PASSWORD value prints as [hidden].
func (v Value) String() string { return v.JavaString() }

// GoString is JavaString, keeping PASSWORD values hidden under %#v.
func (v Value) GoString() string { return v.JavaString() }
