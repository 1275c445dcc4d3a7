package compat

import (
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/stoatflow/stoatflow/kstreams/serde/registry"
	"github.com/stoatflow/stoatflow/properties"
)

// internalConfigs are Kafka Streams' private settings, accepted and ignored.
var internalConfigs = set(`internal.task.assignor.class __iq.consistency.offset.vector.enabled__
__processing.threads.enabled__ __internal.override.topic.prefix__`)

// OuterJoinEmitIntervalConfig is Kafka Streams' private setting that
// throttles a left or outer stream-stream join's emission of records that
// found no partner (Config.OuterJoinEmitInterval).
const OuterJoinEmitIntervalConfig = "__emit.interval.ms.kstreams.outer.join.spurious.results.fix__"

// WindowedAggregationEmitIntervalConfig is Kafka Streams' private setting
// that throttles the final results of a windowed aggregation with
// emitStrategy(onWindowClose) (Config.WindowedAggregationEmitInterval).
const WindowedAggregationEmitIntervalConfig = "__emit.interval.ms.kstreams.windowed.aggregation__"

// emitInterval reads one of Kafka Streams' private emit intervals, a
// number of milliseconds, into d.
func (l *loader) emitInterval(key, value string, d *time.Duration) {
	n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
	if err != nil || n < 0 {
		l.errorf(key, "give a number of milliseconds, 0 or more",
			"Invalid value %s for configuration %s: Not a number of type LONG", value, key)
		return
	}
	*d = time.Duration(n) * time.Millisecond
}

// loader carries the state of one Load.
type loader struct {
	p      *properties.Properties
	opts   loadOptions
	diags  Diagnostics
	values map[string]Value // effective values of catalog keys
	set    map[string]bool  // catalog keys given in the input (and parsed)
	bad    map[string]bool  // keys whose values failed to parse or validate
	files  []fileSetting    // files the keys name, for Config.CheckFiles
}

func (l *loader) add(sev Severity, key, msg, hint string) {
	e, _ := l.p.Get(key)
	l.diags = append(l.diags, Diagnostic{Severity: sev, Key: key, Pos: e.Pos, Message: msg, Hint: hint})
}

// reported reports whether key already has a finding.
func (l *loader) reported(key string) bool {
	for _, d := range l.diags {
		if d.Key == key {
			return true
		}
	}
	return false
}

func (l *loader) errorf(key, hint, format string, args ...any) {
	l.add(SeverityError, key, fmt.Sprintf(format, args...), hint)
}

func (l *loader) warnf(key, hint, format string, args ...any) {
	l.add(SeverityWarning, key, fmt.Sprintf(format, args...), hint)
}

// A LoadOption gives Load what the program binds to the Java classes an
// application's configuration may name, for it to resolve them against:
// the loader has no other source of bindings, and nothing binds a class by
// being imported.
type LoadOption func(*loadOptions)

type loadOptions struct {
	// productionHandlers are the classes besides Kafka's default that
	// production.exception.handler may name.
	productionHandlers []string
	schemaClasses      registry.Classes
	// hostname overrides os.Hostname for the static members' names.
	hostname string
}

// WithProductionHandlerClasses names the Java classes, besides Kafka's
// default, that production.exception.handler may name: those the program
// has Go handlers for (kstreams.ProductionHandlers.Classes), which it gives
// the runtime as well (streams.WithProductionHandlers). Any other class is
// an error.
func WithProductionHandlerClasses(classes ...string) LoadOption {
	return func(o *loadOptions) { o.productionHandlers = append(o.productionHandlers, classes...) }
}

// WithSchemaClasses binds the Java classes specific.protobuf.key.type,
// specific.protobuf.value.type, json.key.type and json.value.type may name
// to Go types. The Config keeps a copy for the serdes it builds
// (SchemaRegistryConfig.NewSerde).
func WithSchemaClasses(c registry.Classes) LoadOption {
	return func(o *loadOptions) {
		o.schemaClasses = registry.Classes{Protobuf: maps.Clone(c.Protobuf), JSONSchema: maps.Clone(c.JSONSchema)}
	}
}

// WithHostName names the host the instance runs on, for the names of its
// static group members (Config.GroupInstanceID): os.Hostname by default.
func WithHostName(name string) LoadOption {
	return func(o *loadOptions) { o.hostname = name }
}

// Load turns properties into a Config, checking every key with Kafka's rules
// and resolving the Java classes it names against opts. It returns the
// Config (filled with defaults where a value was bad, so it can still be
// printed) and every finding; the Config must not be run when
// Diagnostics.HasErrors. Config-provider references must already be resolved
// (properties.Resolve).
func Load(p *properties.Properties, opts ...LoadOption) (*Config, Diagnostics) {
	if p == nil {
		p = properties.New()
	}
	l := &loader{p: p, values: map[string]Value{}, set: map[string]bool{}, bad: map[string]bool{}}
	for _, opt := range opts {
		opt(&l.opts)
	}
	c := &Config{TopicConfigs: map[string]string{}, ClientTags: map[string]string{}, StoreWriteBufferBytes: map[string]int64{},
		OuterJoinEmitInterval: time.Second, WindowedAggregationEmitInterval: time.Second,
		StoreFlushMaxLagRecords: map[string]int64{}, StoreFlushMaxLag: map[string]time.Duration{}}
	c.hostname = l.opts.hostname
	if c.hostname == "" {
		c.hostname, _ = os.Hostname()
	}

	// Catalog keys: parse, validate, or take the default.
	for _, k := range streamsKeys {
		l.parseKey(k, k.Name)
	}
	for _, k := range stoatflowKeys {
		l.parseKey(k, k.Name)
	}
	c.Strict = l.values[StrictConfig].Bool

	// Everything else: prefixes, client keys, unknown keys.
	var unknown []string
	for _, key := range p.Keys() {
		if _, ok := streamsIndex[key]; ok {
			continue
		}
		if _, ok := stoatflowIndex[key]; ok {
			continue
		}
		e, _ := p.Get(key)
		switch {
		case strings.HasPrefix(key, "stoatflow."):
			if sk, store, ok := perStoreKey(key); ok {
				v := l.parseKey(sk.key, key)
				if !l.bad[key] {
					sk.set(c, store, v)
				}
				continue
			}
			unknown = append(unknown, key)
		case strings.HasPrefix(key, TopicPrefix):
			c.TopicConfigs[strings.TrimPrefix(key, TopicPrefix)] = e.Value
		case strings.HasPrefix(key, ClientTagPrefix):
			c.ClientTags[strings.TrimPrefix(key, ClientTagPrefix)] = e.Value
		case strings.HasPrefix(key, ConfigProvidersConfig+"."):
			// Used by properties.Resolve.
		case isRegistryKey(key):
			// Read by schemaRegistry.
		case serdeEncodingKeys[key]:
			l.serdeEncoding(key, e.Value)
		case key == OuterJoinEmitIntervalConfig:
			// Private to Kafka Streams, but it decides when a left or outer
			// join emits, so StoatFlow honours it.
			l.emitInterval(key, e.Value, &c.OuterJoinEmitInterval)
		case key == WindowedAggregationEmitIntervalConfig:
			// The same, for a windowed aggregation's final results.
			l.emitInterval(key, e.Value, &c.WindowedAggregationEmitInterval)
		case internalConfigs[key]:
			l.warnf(key, "remove it", "%s is a private Kafka Streams setting; StoatFlow ignores it", key)
		case isAnyClientName(key):
			// Passed to the clients below.
		default:
			if kind, sub, ok := splitClientPrefix(key); ok {
				if !prefixKnows(kind, sub) {
					unknown = append(unknown, key)
				}
				continue
			}
			unknown = append(unknown, key)
		}
	}
	for _, key := range unknown {
		sev := SeverityWarning
		hint := "Kafka Streams would only pass it to its clients and to processors (appConfigs()); StoatFlow gives it to processors and to the production exception handler only (AppConfigs)"
		if s := suggest(key); s != "" {
			hint = "did you mean " + s + "?"
		}
		if c.Strict {
			sev = SeverityError
			hint += " (stoatflow.config.strict=true makes unknown keys errors)"
		}
		l.add(sev, key, fmt.Sprintf("The configuration '%s' was supplied but isn't a known config.", key), hint)
	}

	l.missingRequired()
	l.dependent(c)
	l.schemaRegistry(c)
	l.fill(c)
	l.clients(c)
	l.notHonoured(c)
	l.httpFiles(c)
	c.values = l.values
	c.invalid = l.bad
	c.files = l.files
	c.originals = make(map[string]string, p.Len())
	c.positions = make(map[string]properties.Pos, p.Len())
	for _, key := range p.Keys() {
		e, _ := p.Get(key)
		c.originals[key] = e.Value
		c.positions[key] = e.Pos
	}
	sortDiagnostics(l.diags)
	return c, l.diags
}

func sortDiagnostics(ds Diagnostics) {
	sort.SliceStable(ds, func(i, j int) bool {
		if ds[i].Pos.File != ds[j].Pos.File {
			return ds[i].Pos.File < ds[j].Pos.File
		}
		if ds[i].Pos.Line != ds[j].Pos.Line {
			return ds[i].Pos.Line < ds[j].Pos.Line
		}
		return ds[i].Key < ds[j].Key
	})
}

// parseKey parses key (described by k) from the input, or takes k's default.
func (l *loader) parseKey(k *Key, key string) Value {
	e, ok := l.p.Get(key)
	if !ok {
		v := k.DefaultValue()
		l.values[key] = v
		return v
	}
	v, err := ParseValue(key, e.Value, k.Type)
	if err != nil {
		l.bad[key] = true
		l.add(SeverityError, key, err.Error(), typeHint(k))
		v = k.DefaultValue()
		l.values[key] = v
		return v
	}
	if k.Validator != nil {
		if msg := k.Validator.Validate(key, v); msg != "" {
			l.bad[key] = true
			l.add(SeverityError, key, msg, validatorHint(key, k))
			v = k.DefaultValue()
			l.values[key] = v
			return v
		}
	}
	l.set[key] = true
	l.values[key] = v
	return v
}

func typeHint(k *Key) string {
	switch k.Type {
	case TypeBoolean:
		return "write true or false"
	case TypeInt:
		return "write a whole number from -2147483648 to 2147483647"
	case TypeShort:
		return "write a whole number from -32768 to 32767"
	case TypeLong:
		return "write a whole number (no units, no separators)"
	case TypeDouble:
		return "write a decimal number"
	case TypeClass:
		return "write a fully qualified Java class name"
	}
	return ""
}

func validatorHint(key string, k *Key) string {
	switch v := k.Validator.(type) {
	case Range, FloatRange:
		return fmt.Sprintf("set %s within %s", key, v)
	case NonEmptyString:
		return fmt.Sprintf("give %s a value, or remove the line", key)
	case ValidString, CaseInsensitiveValidString:
		return fmt.Sprintf("set %s to one of %s", key, v)
	case ValidList:
		return fmt.Sprintf("give %s a comma-separated list of distinct, non-empty values", key)
	case ListSize:
		return fmt.Sprintf("list at most %d values", v.Max)
	}
	if k.Default != "" {
		return fmt.Sprintf("see docs/config.md for %s (default %s)", key, k.Default)
	}
	return fmt.Sprintf("see docs/config.md for %s", key)
}

func (l *loader) missingRequired() {
	for _, k := range streamsKeys {
		if k.Required && !l.p.Has(k.Name) {
			hint := "add " + k.Name + "=... to the .properties file or pass --set " + k.Name + "=..."
			l.diags = append(l.diags, Diagnostic{Severity: SeverityError, Key: k.Name,
				Message: fmt.Sprintf("Missing required configuration \"%s\" which has no default value.", k.Name), Hint: hint})
		}
	}
}

// splitClientPrefix splits a client-prefixed key into its client and the rest.
func splitClientPrefix(key string) (string, string, bool) {
	for _, p := range []string{MainConsumerPrefix, RestoreConsumerPrefix, GlobalConsumerPrefix, ConsumerPrefix, ProducerPrefix, AdminPrefix} {
		if strings.HasPrefix(key, p) {
			return p, strings.TrimPrefix(key, p), true
		}
	}
	return "", "", false
}

func prefixKnows(prefix, name string) bool {
	switch prefix {
	case ProducerPrefix:
		return isClientName(Producer, name)
	case AdminPrefix:
		return isClientName(Admin, name)
	}
	return isClientName(MainConsumer, name)
}

// given reports whether key was set with a valid value.
func (l *loader) given(key string) bool { return l.set[key] }

// dependent applies the rules that tie keys together.
func (l *loader) dependent(c *Config) {
	v := l.values
	eos := v[ProcessingGuaranteeConfig].Str == "exactly_once_v2"

	// Twins: the stoatflow.* key wins; warn when both are set and disagree.
	for _, k := range stoatflowKeys {
		if k.Twin == "" || !l.given(k.Name) {
			continue
		}
		tk := streamsIndex[k.Twin]
		tv := v[k.Name]
		if tk.Type != k.Type {
			panic("compat: twin " + k.Name + " has another type than " + k.Twin)
		}
		if l.given(k.Twin) && !sameSetting(k.Twin, v[k.Twin], tv) {
			l.warnf(k.Name, fmt.Sprintf("remove one of them; %s wins", k.Name),
				"%s = %s and %s = %s disagree; using %s", k.Name, tv.JavaString(), k.Twin, v[k.Twin].JavaString(), tv.JavaString())
		}
		v[k.Twin] = tv
		l.set[k.Twin] = true
	}

	// commit.interval.ms defaults to 100 under exactly_once_v2.
	if eos && !l.given(CommitIntervalMsConfig) {
		v[CommitIntervalMsConfig] = Value{Type: TypeLong, Int: 100}
	}
	if eos {
		// StreamsConfig refuses a transaction timeout below the commit interval;
		// like Kafka it reads only producer.transaction.timeout.ms.
		txTimeout := int64(10000)
		if e, ok := l.p.Get(ProducerPrefix + "transaction.timeout.ms"); ok {
			if tv, err := ParseValue(ProducerPrefix+"transaction.timeout.ms", e.Value, TypeInt); err == nil {
				txTimeout = tv.Int
			} else {
				l.add(SeverityError, ProducerPrefix+"transaction.timeout.ms", err.Error(), "write a whole number of milliseconds")
			}
		}
		if ci := v[CommitIntervalMsConfig].Int; txTimeout < ci {
			key := CommitIntervalMsConfig
			if !l.p.Has(key) {
				key = ProducerPrefix + "transaction.timeout.ms"
			}
			l.add(SeverityError, key, fmt.Sprintf("Transaction timeout %d was set lower than streams commit interval %d. This will cause ongoing transaction always timeout due to inactivity caused by long commit interval. Consider reconfiguring commit interval to match transaction timeout by tuning 'commit.interval.ms' config, or increase the transaction timeout to match commit interval by tuning `producer.transaction.timeout.ms` config.", txTimeout, ci),
				"lower commit.interval.ms or raise producer.transaction.timeout.ms")
		}
	}

	// Deprecated twins in Kafka Streams itself: the new key wins.
	l.deprecatedPair(CacheMaxBytesBufferingConfig, StatestoreCacheMaxBytesConfig)
	l.deprecatedPair(DefaultDeserializationExceptionHandlerConfig, DeserializationExceptionHandlerConfig)
	l.deprecatedPair(DefaultProductionExceptionHandlerConfig, ProductionExceptionHandlerConfig)

	// KIP-892.
	if l.given(TransactionalStateStoresConfig) && !v[TransactionalStateStoresConfig].Bool {
		l.warnf(TransactionalStateStoresConfig, "remove the line, or set it to true",
			"enable.transactional.statestores=false is ignored: StoatFlow's state stores are always transactional")
	}

	// Rack awareness, checked as StreamsConfig does after parsing.
	l.rackAwareness()

	// Deprecated and Java-only settings.
	if l.given("windowed.inner.class.serde") {
		l.errorf("windowed.inner.class.serde", "remove it; give windowed serdes to the topology in code",
			"windowed.inner.class.serde = %s is for windowed deserializers of plain consumers and must not be set in a Kafka Streams application", v["windowed.inner.class.serde"].Str)
	}
	if l.given("window.size.ms") {
		l.warnf("window.size.ms", "remove it; windows are defined in the topology",
			"window.size.ms = %s is deprecated and ignored by Kafka Streams applications, and so by StoatFlow", v["window.size.ms"].JavaString())
	}
	if l.given("upgrade.from") {
		l.warnf("upgrade.from", "remove it once the JVM instances are upgraded",
			"upgrade.from = %s only matters for rolling upgrades of JVM instances; StoatFlow ignores it and writes the current formats (a KTable.groupBy's repartition records carry the old and new value in one record, which Kafka Streams before 3.5 cannot read)", v["upgrade.from"].JavaString())
	}
	if l.given("processing.exception.handler.global.enabled") {
		l.warnf("processing.exception.handler.global.enabled", "remove it once the JVM application no longer needs it",
			"processing.exception.handler.global.enabled = %t is deprecated since Kafka 4.3 and becomes always true in 5.0; StoatFlow has no global stores yet, so it changes nothing",
			v["processing.exception.handler.global.enabled"].Bool)
	}
	if strings.EqualFold(v["group.protocol"].Str, "streams") {
		// Under the streams protocol the group's coordinator places the
		// tasks, with the broker's group.streams.* settings: Kafka
		// Streams warns about the client's num.standby.replicas, and the
		// classic assignor's other settings change nothing either.
		for _, k := range []struct{ key, broker string }{
			{"num.standby.replicas", "group.streams.num.standby.replicas"},
			{"max.warmup.replicas", "group.streams.num.warmup.replicas"},
			{"acceptable.recovery.lag", "group.streams.acceptable.recovery.lag"},
			{"probing.rebalance.interval.ms", "group.streams.task.offset.interval.ms"},
			{"rack.aware.assignment.strategy", "group.streams.assignors"},
			{"rack.aware.assignment.tags", "group.streams.rack.aware.assignment.tags"},
		} {
			if l.given(k.key) && !l.reported(k.key) {
				l.warnf(k.key, "remove it; set "+k.broker+" on the broker (or the group's config) instead",
					"%s = %s is ignored under group.protocol=streams: the group's coordinator assigns the tasks, as the broker's %s says",
					k.key, v[k.key].JavaString(), k.broker)
			}
		}
	}
	if l.given("metric.reporters") {
		list := v["metric.reporters"].List
		if !(len(list) == 1 && list[0] == "org.apache.kafka.common.metrics.JmxReporter") && len(list) > 0 {
			l.warnf("metric.reporters", "scrape StoatFlow's /metrics (Prometheus) instead",
				"metric.reporters names Java classes (%s) with no Go equivalent; they are ignored", strings.Join(list, ", "))
		}
	}
}

// sameSetting compares values, case-insensitively for isolation levels.
func sameSetting(key string, a, b Value) bool {
	if key == DefaultIQIsolationLevelConfig {
		return strings.EqualFold(a.Str, b.Str)
	}
	return a.Equal(b)
}

func (l *loader) deprecatedPair(old, cur string) {
	if !l.given(old) {
		return
	}
	if l.given(cur) {
		l.warnf(old, "remove "+old, "Both deprecated config %s and new config %s are set, hence %s is ignored and %s is used instead.", old, cur, old, cur)
		return
	}
	l.warnf(old, "rename it to "+cur, "%s is deprecated; use %s", old, cur)
	l.values[cur] = l.values[old]
	l.set[cur] = true
}

func (l *loader) rackAwareness() {
	tags := l.p.WithPrefix(ClientTagPrefix)
	if len(tags) > 5 {
		first := ""
		for k := range tags {
			if first == "" || k < first {
				first = k
			}
		}
		l.add(SeverityError, ClientTagPrefix+first, "At most 5 client tags can be specified using client.tag. prefix.", "remove client.tag.* entries")
	}
	for _, t := range l.values["rack.aware.assignment.tags"].List {
		if _, ok := tags[t]; !ok {
			l.add(SeverityError, "rack.aware.assignment.tags", invalid("rack.aware.assignment.tags", l.values["rack.aware.assignment.tags"].JavaString(),
				"Contains invalid value ["+t+"] which doesn't have corresponding tag set via [client.tag.] prefix."), "add client.tag."+t+"=<value>")
		}
	}
	names := make([]string, 0, len(tags))
	for k := range tags {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		e := tags[k]
		if len([]rune(k)) > 20 {
			l.add(SeverityError, ClientTagPrefix+k, invalid(ClientTagPrefix+k, k, "Tag key exceeds maximum length of 20."), "shorten the tag key")
		}
		if len([]rune(e.Value)) > 30 {
			l.add(SeverityError, ClientTagPrefix+k, invalid(ClientTagPrefix+k, e.Value, "Tag value exceeds maximum length of 30."), "shorten the tag value")
		}
	}
}

// classSetting maps a CLASS key to a built-in, reporting a custom class.
func classSetting[T any](l *loader, key string, table map[string]T, def T, severity Severity, instead string) T {
	v := l.values[key]
	if v.Null {
		return def
	}
	if x, ok := table[v.Str]; ok {
		return x
	}
	if !l.bad[key] {
		names := make([]string, 0, len(table))
		for n := range table {
			names = append(names, shortClass(n))
		}
		sort.Strings(names)
		hint := instead
		if len(names) > 0 {
			hint = fmt.Sprintf("%s (built-ins: %s)", instead, strings.Join(names, ", "))
		}
		l.add(severity, key, fmt.Sprintf("%s = %s names a Java class with no Go equivalent", key, v.Str), hint)
	}
	return def
}

// taskAssignor resolves task.assignor.class: null is Kafka Streams'
// HighAvailabilityTaskAssignor, StickyTaskAssignorClass its KIP-924
// StickyTaskAssignor; any other class falls back to the default, with a
// warning, as does the default's own class name, which a Kafka Streams
// leader refuses (it is no KIP-924 TaskAssignor).
func (l *loader) taskAssignor() TaskAssignor {
	const key = "task.assignor.class"
	v := l.values[key]
	switch {
	case v.Null:
		return TaskAssignorHighAvailability
	case v.Str == StickyTaskAssignorClass:
		return TaskAssignorSticky
	case v.Str == highAvailabilityTaskAssignorClass:
		l.warnf(key, "remove it; null is the HighAvailabilityTaskAssignor",
			"%s = %s: StoatFlow uses the HighAvailabilityTaskAssignor, the default, but Kafka Streams 4.4 refuses this class name "+
				"(it is no KIP-924 TaskAssignor), so a JVM instance of the application would fail the rebalances it leads", key, v.Str)
	default:
		l.warnf(key, "remove it, or name "+StickyTaskAssignorClass+", the KIP-924 assignor StoatFlow has",
			"%s = %s names a Java class with no Go equivalent; a StoatFlow group leader places the tasks with Kafka Streams' default "+
				"HighAvailabilityTaskAssignor instead, so the placement depends on which instance leads the group", key, v.Str)
	}
	return TaskAssignorHighAvailability
}

// productionHandler resolves production.exception.handler: Kafka's default,
// or a class the program has a Go handler for (WithProductionHandlerClasses).
func (l *loader) productionHandler() string {
	v := l.values[ProductionExceptionHandlerConfig]
	if v.Null {
		return defaultProductionHandlerClass
	}
	if v.Str == defaultProductionHandlerClass || slices.Contains(l.opts.productionHandlers, v.Str) {
		return v.Str
	}
	if !l.bad[ProductionExceptionHandlerConfig] {
		l.add(SeverityError, ProductionExceptionHandlerConfig,
			fmt.Sprintf("%s = %s names a Java class with no Go handler bound to it", ProductionExceptionHandlerConfig, v.Str),
			"a custom handler decides which failed records are skipped, so StoatFlow cannot ignore it: bind its Go counterpart to this class name in the "+
				"kstreams.ProductionHandlers given to sidecar.WithProductionHandlers (in a sidecar of your own, sidecar.Main), or use the built-in "+shortClass(defaultProductionHandlerClass))
	}
	return defaultProductionHandlerClass
}

// saturatedMs converts a number of milliseconds to a Duration, pinned at
// the Duration's bounds where it would overflow: Long.MAX_VALUE ms, which
// Kafka Streams takes as forever, stays forever.
func saturatedMs(n int64) time.Duration {
	switch {
	case n > math.MaxInt64/int64(time.Millisecond):
		return math.MaxInt64
	case n < math.MinInt64/int64(time.Millisecond):
		return math.MinInt64
	}
	return time.Duration(n) * time.Millisecond
}

// fill copies the effective values into the typed fields.
func (l *loader) fill(c *Config) {
	v := l.values
	ms := func(key string) time.Duration { return time.Duration(v[key].Int) * time.Millisecond }
	c.ApplicationID = v[ApplicationIDConfig].Str
	c.BootstrapServers = append([]string(nil), v[BootstrapServersConfig].List...)
	c.ClientID = v[ClientIDConfig].Str
	if v[ProcessingGuaranteeConfig].Str == "exactly_once_v2" {
		c.ProcessingGuarantee = ExactlyOnceV2
	}
	c.NumStreamThreads = int(v[NumStreamThreadsConfig].Int)
	if c.NumStreamThreads < 1 && l.given(NumStreamThreadsConfig) {
		l.errorf(NumStreamThreadsConfig, "set num.stream.threads to 1 or more",
			"num.stream.threads = %d: StoatFlow needs at least one stream thread", c.NumStreamThreads)
	}
	c.CommitInterval = ms(CommitIntervalMsConfig)
	c.StateDir = v[StateDirConfig].Str
	c.ReplicationFactor = int(v["replication.factor"].Int)
	c.NumStandbyReplicas = int(v["num.standby.replicas"].Int)

	serdeHint := "register a Go Serde for the topology in code and remove the key, or use a built-in"
	c.DefaultKeySerde = classSetting(l, DefaultKeySerdeConfig, serdeClasses, SerdeUnset, SeverityError, serdeHint)
	c.DefaultValueSerde = classSetting(l, DefaultValueSerdeConfig, serdeClasses, SerdeUnset, SeverityError, serdeHint)
	for _, k := range []string{"default.list.key.serde.inner", "default.list.value.serde.inner", "default.list.key.serde.type", "default.list.value.serde.type"} {
		if l.given(k) && !v[k].Null {
			l.errorf(k, "give list serdes to the topology in code", "%s = %s configures Serdes$ListSerde, which StoatFlow does not provide as a default serde", k, v[k].Str)
		}
	}
	c.DeserializationExceptionHandler = classSetting(l, DeserializationExceptionHandlerConfig, deserializationClasses, DeserializationLogAndFail, SeverityError,
		"a custom handler decides which records are dropped, so StoatFlow cannot ignore it; use a built-in and set errors.dead.letter.queue.topic.name to keep failed records")
	c.ProcessingExceptionHandler = classSetting(l, ProcessingExceptionHandlerConfig, processingClasses, ProcessingLogAndFail, SeverityError,
		"a custom handler decides which records are dropped; use a built-in")
	c.ProcessingExceptionHandlerGlobal = v["processing.exception.handler.global.enabled"].Bool
	c.ProductionExceptionHandler = l.productionHandler()
	c.TimestampExtractor = classSetting(l, DefaultTimestampExtractorConfig, timestampClasses, FailOnInvalidTimestamp, SeverityError,
		"a custom TimestampExtractor changes results; give a Go extractor to the topology in code, or use a built-in")
	c.DeadLetterQueueTopic = v["errors.dead.letter.queue.topic.name"].Str
	c.MaxTaskIdle = ms("max.task.idle.ms")
	c.BufferedRecordsPerPartition = int(v["buffered.records.per.partition"].Int)
	if n := c.BufferedRecordsPerPartition; n < 0 {
		// Kafka Streams accepts it (the key has no validator) and then
		// never finds a queue at or below the bound.
		l.warnf("buffered.records.per.partition", "set it to 0 or more",
			"buffered.records.per.partition = %d is below 0: as in Kafka Streams, StoatFlow stops fetching each input partition once a poll has "+
				"buffered any of its records, and fetches it again only when its task closes or rewinds, so processing stalls", n)
	}
	c.StatestoreCacheMaxBytes = v[StatestoreCacheMaxBytesConfig].Int
	c.UncommittedMaxBytes = v[StatestoreUncommittedMaxBytesConfig].Int
	c.IsolationLevel, _ = ParseIsolationLevel(v[DefaultIQIsolationLevelConfig].Str)
	c.ApplicationServer = v[ApplicationServerConfig].Str
	c.RepartitionPurgeInterval = ms("repartition.purge.interval.ms")
	c.WindowstoreChangelogAdditionalRetention = ms("windowstore.changelog.additional.retention.ms")
	c.PollTimeout = ms("poll.ms")
	c.AcceptableRecoveryLag = v["acceptable.recovery.lag"].Int
	c.MaxWarmupReplicas = int(v["max.warmup.replicas"].Int)
	c.ProbingRebalanceInterval = ms("probing.rebalance.interval.ms")
	c.TaskTimeout = ms("task.timeout.ms")
	c.Optimizations = optimizations(v["topology.optimization"].Str)

	c.DSLStore = DSLStoreRocksDB
	if l.given(DSLStoreSuppliersClassConfig) || !l.given(DefaultDSLStoreConfig) {
		c.DSLStore = classSetting(l, DSLStoreSuppliersClassConfig, dslStoreClasses, DSLStoreRocksDB, SeverityError,
			"custom DslStoreSuppliers have no Go equivalent; use a built-in")
		if l.given(DefaultDSLStoreConfig) {
			l.warnf(DefaultDSLStoreConfig, "remove default.dsl.store", "default.dsl.store is deprecated and ignored because dsl.store.suppliers.class is set")
		}
	} else {
		l.warnf(DefaultDSLStoreConfig, "use dsl.store.suppliers.class", "default.dsl.store is deprecated; StoatFlow applies %s=%s to the DSL stores of every topology, as Kafka Streams does only "+
			"for a topology built with a TopologyConfig (at run time it reads dsl.store.suppliers.class alone); use dsl.store.suppliers.class",
			DefaultDSLStoreConfig, v[DefaultDSLStoreConfig].Str)
		if v[DefaultDSLStoreConfig].Str == "in_memory" {
			c.DSLStore = DSLStoreInMemory
			v[DSLStoreSuppliersClassConfig] = Value{Type: TypeClass, Str: DSLStoreInMemory.String()}
		}
	}
	c.DSLStoreHeaders = strings.EqualFold(v["dsl.store.format"].Str, "HEADERS")
	if strings.EqualFold(v["group.protocol"].Str, "streams") {
		c.GroupProtocol = GroupProtocolStreams
	}
	c.TopologyDescriptionPushEnabled = v["topology.description.push.enabled"].Bool
	c.EnsureExplicitInternalResourceNaming = v[EnsureExplicitInternalResourceNamingConfig].Bool
	c.AllowOSGroupWriteAccess = v[AllowOSGroupWriteAccessConfig].Bool
	c.StateCleanupDelay = saturatedMs(v[StateCleanupDelayMsConfig].Int)
	if c.StateCleanupDelay < time.Millisecond && l.given(StateCleanupDelayMsConfig) {
		l.errorf(StateCleanupDelayMsConfig, "set state.cleanup.delay.ms to 1 or more",
			"%s = %d: Kafka Streams' start fails on it, as its cleaner's period must be positive", StateCleanupDelayMsConfig, v[StateCleanupDelayMsConfig].Int)
	}
	c.StateCleanupDirMaxAge = saturatedMs(v[StateCleanupDirMaxAgeMsConfig].Int)
	if c.StateCleanupDirMaxAge < 0 && c.StateCleanupDirMaxAge != StateCleanupDirMaxAgeDisabled {
		l.warnf(StateCleanupDirMaxAgeMsConfig, "set -1 to keep the task directories, or the age past which to delete them",
			"%s = %d deletes every task directory at each start, as in Kafka Streams, where only -1 turns the purge off",
			StateCleanupDirMaxAgeMsConfig, v[StateCleanupDirMaxAgeMsConfig].Int)
	}
	c.LogSummaryInterval = saturatedMs(v["log.summary.interval.ms"].Int)
	switch v["metrics.recording.level"].Str {
	case "DEBUG":
		c.MetricsRecordingLevel = RecordingDebug
	case "TRACE":
		c.MetricsRecordingLevel = RecordingTrace
	}
	c.MetricsNumSamples = int(v["metrics.num.samples"].Int)
	c.MetricsSampleWindow = saturatedMs(v["metrics.sample.window.ms"].Int)
	c.RackAwareAssignmentTags = append([]string(nil), v["rack.aware.assignment.tags"].List...)
	c.RackAwareAssignmentStrategy = v["rack.aware.assignment.strategy"].Str
	nullableInt := func(key string) *int {
		if v[key].Null {
			return nil
		}
		n := int(v[key].Int)
		return &n
	}
	c.RackAwareTrafficCost = nullableInt("rack.aware.assignment.traffic_cost")
	c.RackAwareNonOverlapCost = nullableInt("rack.aware.assignment.non_overlap_cost")
	c.TaskAssignor = l.taskAssignor()
	if !v["upgrade.from"].Null {
		c.UpgradeFrom = v["upgrade.from"].Str
	}
	classSetting(l, RocksDBConfigSetterConfig, map[string]struct{}{}, struct{}{}, SeverityWarning,
		"StoatFlow ignores it; tune RocksDB with stoatflow.rocksdb.write-buffer-bytes and stoatflow.store.<store>.rocksdb.write-buffer-bytes")
	classSetting(l, "default.client.supplier", map[string]struct{}{"org.apache.kafka.streams.processor.internals.DefaultKafkaClientSupplier": {}}, struct{}{}, SeverityWarning,
		"StoatFlow ignores it: its clients are franz-go clients configured from this file")
	classSetting(l, "processor.wrapper.class", map[string]struct{}{"org.apache.kafka.streams.processor.internals.NoOpProcessorWrapper": {}}, struct{}{}, SeverityWarning,
		"StoatFlow ignores it (Kafka Streams also needs it passed to the StreamsBuilder to apply); wrap processors in the Go topology instead")

	// StoatFlow's own keys.
	c.Topology = v[TopologyConfig].Str
	c.EmbeddedBroker = v[EmbeddedBrokerConfig].Bool
	c.StaticMembership = v[StaticMembershipConfig].Bool
	c.LeaveGroupOnClose = v[ShutdownLeaveGroupConfig].Bool
	c.UncaughtExceptionResponse = strings.ToUpper(v[UncaughtExceptionConfig].Str)
	c.HTTPListen = v[HTTPListenConfig].Str
	if t := v[HTTPAuthTokenConfig]; !t.Null {
		c.HTTPAuthToken = NewSecret(t.Str)
	}
	if !v[HTTPTLSCertFileConfig].Null {
		c.HTTPTLSCertFile = v[HTTPTLSCertFileConfig].Str
	}
	if !v[HTTPTLSKeyFileConfig].Null {
		c.HTTPTLSKeyFile = v[HTTPTLSKeyFileConfig].Str
	}
	if (c.HTTPTLSCertFile == "") != (c.HTTPTLSKeyFile == "") {
		key := HTTPTLSCertFileConfig
		if c.HTTPTLSCertFile == "" {
			key = HTTPTLSKeyFileConfig
		}
		l.errorf(key, "set both stoatflow.http.tls.cert-file and stoatflow.http.tls.key-file, or neither",
			"%s is set alone; HTTPS needs a certificate and a key", key)
	}
	c.ShutdownTimeout = ms(ShutdownTimeoutMsConfig)
	switch strings.ToLower(v[QueryRemoteConfig].Str) {
	case "redirect":
		c.QueryRemote = QueryRedirect
	case "none":
		c.QueryRemote = QueryNone
	}
	c.QueryRemoteTimeout = ms(QueryRemoteTimeoutMsConfig)
	if strings.EqualFold(v[LogFormatConfig].Str, "json") {
		c.LogFormat = LogJSON
	}
	switch strings.ToLower(v[LogLevelConfig].Str) {
	case "debug":
		c.LogLevel = slog.LevelDebug
	case "warn":
		c.LogLevel = slog.LevelWarn
	case "error":
		c.LogLevel = slog.LevelError
	default:
		c.LogLevel = slog.LevelInfo
	}
	c.RocksDBWriteBufferBytes = v[RocksDBWriteBufferBytesConfig].Int
	c.FlushMaxLagRecords = v[FlushMaxLagRecordsConfig].Int
	c.FlushMaxLag = ms(FlushMaxLagMsConfig)
}

func optimizations(s string) []string {
	var out []string
	for _, o := range splitJavaList(s) {
		switch o {
		case OptimizeAll:
			return []string{OptimizeMergeRepartitionTopics, OptimizeReuseKTableSourceTopics, OptimizeSingleStoreSelfJoin}
		case OptimizeNone, "":
		default:
			out = append(out, o)
		}
	}
	sort.Strings(out)
	return out
}

// suggest returns a known key within edit distance 2 of key, if any.
func suggest(key string) string {
	best, bestD := "", 3
	try := func(name string) {
		if d := editDistance(key, name, bestD); d < bestD {
			best, bestD = name, d
		}
	}
	for _, k := range streamsKeys {
		try(k.Name)
	}
	for _, k := range stoatflowKeys {
		try(k.Name)
	}
	if prefix, sub, ok := splitClientPrefix(key); ok {
		for _, m := range []map[string]bool{commonClientNames, consumerOnlyNames, producerOnlyNames, adminOnlyNames} {
			for n := range m {
				if d := editDistance(sub, n, bestD); d < bestD && prefixKnows(prefix, n) {
					best, bestD = prefix+n, d
				}
			}
		}
	}
	return best
}

// editDistance is the Levenshtein distance, or max when it is at least max.
func editDistance(a, b string, max int) int {
	if d := len(a) - len(b); d >= max || -d >= max {
		return max
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin >= max {
			return max
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], max)
}

// LoadFiles reads the .properties files in order, applies the --set style
// overrides ("key=value", later wins), resolves config-provider references with
// env (nil: the real environment and files) and loads the result with opts. Failures to
// read or resolve are returned as error Diagnostics with their positions, so a
// caller has one list to print. The Config is nil only when nothing could be read.
func LoadFiles(files, sets []string, env *properties.Environment, opts ...LoadOption) (*Config, Diagnostics) {
	p, err := properties.Load(files, sets)
	if err != nil {
		d := Diagnostic{Severity: SeverityError, Message: strings.TrimPrefix(err.Error(), "properties: "),
			Hint: "check the file name and its syntax"}
		var se *properties.SyntaxError
		if errors.As(err, &se) {
			d.Pos, d.Message = se.Pos, se.Msg
		}
		return nil, Diagnostics{d}
	}
	warnings, rerr := properties.Resolve(p, env)
	var ds Diagnostics
	for _, w := range warnings {
		ds = append(ds, Diagnostic{Severity: SeverityWarning, Key: w.Key, Pos: w.Pos, Message: w.Msg})
	}
	var perrs []*properties.ProviderError
	collectProviderErrors(rerr, &perrs)
	unresolved := map[string]bool{}
	for _, pe := range perrs {
		// The message names the key: a position alone does not say which
		// key a --set or a long line's reference belongs to.
		ds = append(ds, Diagnostic{Severity: SeverityError, Key: pe.Key, Pos: pe.Pos, Message: pe.Key + ": " + pe.Msg})
		unresolved[pe.Key] = true
	}
	c, more := Load(p, opts...)
	for _, d := range more {
		// A key whose reference could not be resolved keeps the reference
		// as its value; its error says why, not that "${...}" is no
		// valid value.
		if d.Severity == SeverityError && unresolved[d.Key] {
			continue
		}
		ds = append(ds, d)
	}
	sortDiagnostics(ds)
	return c, ds
}

func collectProviderErrors(err error, out *[]*properties.ProviderError) {
	if err == nil {
		return
	}
	if pe, ok := err.(*properties.ProviderError); ok {
		*out = append(*out, pe)
		return
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			collectProviderErrors(e, out)
		}
	}
}
