package compat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stoatflow/stoatflow/properties"
)

// No key is silently ignored: every exported field of Config is read by the
// runtime, or a value StoatFlow does not honour makes Load report it. The two
// tables below say which, and the tests check each claim against the source
// and against Load, so a field that stops being used, or a new field that is
// in neither table, fails.

// fieldUse says how StoatFlow honours one Config field.
type fieldUse struct {
	// by lists the packages (paths inside the module) whose non-test code
	// reads the field, directly or through compat functions (Validate, Load
	// and the printers do not count). "compat" means compat reads it itself
	// outside Validate and the printers.
	by []string
	// warn lists values StoatFlow does not honour, each "key=value", with
	// extra lines the value needs after a newline. Each must make Load report
	// a diagnostic on key that names the key and the value; a warning must
	// also say what StoatFlow does instead. A field with warn and no by must
	// not be read by the runtime: once it is, the warning is stale.
	warn []string
}

var configFields = map[string]fieldUse{
	"ApplicationID":                           {by: []string{"streams", "sidecar"}},
	"BootstrapServers":                        {by: []string{"streams"}},
	"ClientID":                                {by: []string{"streams", "sidecar"}},
	"ProcessingGuarantee":                     {by: []string{"streams"}},
	"NumStreamThreads":                        {by: []string{"streams"}},
	"CommitInterval":                          {by: []string{"streams"}},
	"StateDir":                                {by: []string{"streams"}},
	"AllowOSGroupWriteAccess":                 {by: []string{"streams", "sidecar"}},
	"ReplicationFactor":                       {by: []string{"streams"}},
	"NumStandbyReplicas":                      {by: []string{"streams"}},
	"DefaultKeySerde":                         {by: []string{"streams"}},
	"DefaultValueSerde":                       {by: []string{"streams"}},
	"SchemaRegistry":                          {by: []string{"streams"}},
	"DeserializationExceptionHandler":         {by: []string{"streams"}},
	"ProcessingExceptionHandler":              {by: []string{"streams"}},
	"ProcessingExceptionHandlerGlobal":        {warn: []string{"processing.exception.handler.global.enabled=true"}},
	"ProductionExceptionHandler":              {by: []string{"streams"}, warn: []string{"production.exception.handler=com.example.SkipAllHandler"}},
	"TimestampExtractor":                      {by: []string{"streams"}},
	"DeadLetterQueueTopic":                    {by: []string{"streams"}},
	"MaxTaskIdle":                             {by: []string{"streams"}},
	"BufferedRecordsPerPartition":             {by: []string{"streams"}, warn: []string{"buffered.records.per.partition=-1"}},
	"StatestoreCacheMaxBytes":                 {by: []string{"streams"}},
	"UncommittedMaxBytes":                     {by: []string{"streams"}},
	"IsolationLevel":                          {by: []string{"sidecar"}},
	"ApplicationServer":                       {by: []string{"sidecar", "streams"}},
	"TopicConfigs":                            {by: []string{"streams"}},
	"RepartitionPurgeInterval":                {by: []string{"streams"}},
	"WindowstoreChangelogAdditionalRetention": {by: []string{"streams"}},
	"OuterJoinEmitInterval":                   {by: []string{"streams"}},
	"WindowedAggregationEmitInterval":         {by: []string{"streams"}},
	"PollTimeout":                             {by: []string{"streams"}},
	"AcceptableRecoveryLag":                   {by: []string{"streams"}},
	"MaxWarmupReplicas":                       {by: []string{"streams"}},
	"ProbingRebalanceInterval":                {by: []string{"streams"}},
	"TaskTimeout":                             {warn: []string{"task.timeout.ms=60000"}},
	"Optimizations":                           {by: []string{"streams"}},
	"DSLStore":                                {by: []string{"streams"}},
	"DSLStoreHeaders":                         {warn: []string{"dsl.store.format=HEADERS"}},
	"GroupProtocol":                           {by: []string{"streams"}},
	"TopologyDescriptionPushEnabled":          {by: []string{"streams"}},
	"EnsureExplicitInternalResourceNaming":    {by: []string{"streams"}},
	"StateCleanupDelay":                       {by: []string{"streams"}},
	"StateCleanupDirMaxAge":                   {by: []string{"streams"}},
	"LogSummaryInterval":                      {by: []string{"streams"}},
	"MetricsRecordingLevel":                   {by: []string{"metrics"}},
	"MetricsNumSamples":                       {by: []string{"metrics"}},
	"MetricsSampleWindow":                     {by: []string{"metrics"}},
	"ClientTags":                              {by: []string{"streams"}},
	"RackAwareAssignmentTags":                 {by: []string{"streams"}},
	"RackAwareAssignmentStrategy":             {by: []string{"streams"}},
	"RackAwareTrafficCost":                    {by: []string{"streams"}},
	"RackAwareNonOverlapCost":                 {by: []string{"streams"}},
	"TaskAssignor":                            {by: []string{"streams"}, warn: []string{"task.assignor.class=com.example.Assignor", "task.assignor.class=org.apache.kafka.streams.processor.internals.assignment.HighAvailabilityTaskAssignor"}},
	"UpgradeFrom":                             {warn: []string{"upgrade.from=3.4"}},
	"MaxPollRecords":                          {by: []string{"streams"}},
	"ProducerBatchBytes":                      {by: []string{"streams"}},

	"Topology":                  {by: []string{"sidecar"}},
	"EmbeddedBroker":            {by: []string{"sidecar"}},
	"StaticMembership":          {by: []string{"streams"}},
	"LeaveGroupOnClose":         {by: []string{"streams"}},
	"UncaughtExceptionResponse": {by: []string{"streams"}},
	"HTTPListen":                {by: []string{"sidecar"}},
	"QueryRemote":               {by: []string{"sidecar"}},
	"QueryRemoteTimeout":        {by: []string{"sidecar"}},
	"HTTPAuthToken":             {by: []string{"sidecar"}},
	"HTTPTLSCertFile":           {by: []string{"sidecar"}},
	"HTTPTLSKeyFile":            {by: []string{"sidecar"}},
	"ShutdownTimeout":           {by: []string{"sidecar"}},
	"LogFormat":                 {by: []string{"sidecar"}},
	"LogLevel":                  {by: []string{"sidecar"}},
	"RocksDBWriteBufferBytes":   {by: []string{"streams"}},
	"StoreWriteBufferBytes":     {by: []string{"streams"}},
	"FlushMaxLagRecords":        {by: []string{"streams"}},
	"FlushMaxLag":               {by: []string{"streams"}},
	"StoreFlushMaxLagRecords":   {by: []string{"streams"}},
	"StoreFlushMaxLag":          {by: []string{"streams"}},
	"Strict":                    {by: []string{"compat"}},
}

// keyUse says what one catalog key does. Exactly one of field, sameAs,
// client, warned and provider is set.
type keyUse struct {
	// sample is a value other than the default, with extra lines it needs.
	sample string
	// field is the Config field the key sets (configFields says how that
	// field is honoured); the sample must change it.
	field string
	// sameAs names the key this one is another name for (a deprecated name
	// or a stoatflow.* twin); the sample must give the same Config under
	// either name.
	sameAs string
	// client: the key is a client setting; the sample must change the
	// franz-go options of at least one client, unless kgoRules says it has no
	// effect on a Go client.
	client bool
	// warned: StoatFlow does not honour the sample; Load must report it as
	// for fieldUse.warn.
	warned bool
	// provider: config.providers, consumed by properties.Resolve before Load.
	provider bool
}

var catalogKeys = map[string]keyUse{
	"application.id":                              {sample: "other", field: "ApplicationID"},
	"bootstrap.servers":                           {sample: "b1:9092,b2:9092", field: "BootstrapServers"},
	"num.standby.replicas":                        {sample: "1", field: "NumStandbyReplicas"},
	"processing.exception.handler.global.enabled": {sample: "true", field: "ProcessingExceptionHandlerGlobal"},
	"state.dir":                                   {sample: "/var/lib/app", field: "StateDir"},
	"ensure.explicit.internal.resource.naming":    {sample: "true", field: "EnsureExplicitInternalResourceNaming"},
	"acceptable.recovery.lag":                     {sample: "5000", field: "AcceptableRecoveryLag"},
	"cache.max.bytes.buffering":                   {sample: "1024", sameAs: "statestore.cache.max.bytes"},
	"statestore.cache.max.bytes":                  {sample: "1024", field: "StatestoreCacheMaxBytes"},
	"statestore.uncommitted.max.bytes":            {sample: "1024", field: "UncommittedMaxBytes"},
	"client.id":                                   {sample: "me", field: "ClientID"},
	"default.deserialization.exception.handler":   {sample: "org.apache.kafka.streams.errors.LogAndContinueExceptionHandler", sameAs: "deserialization.exception.handler"},
	"default.key.serde":                           {sample: "org.apache.kafka.common.serialization.Serdes$StringSerde", field: "DefaultKeySerde"},
	"default.list.key.serde.inner":                {sample: "org.apache.kafka.common.serialization.Serdes$StringSerde", warned: true},
	"default.list.value.serde.inner":              {sample: "org.apache.kafka.common.serialization.Serdes$StringSerde", warned: true},
	"default.list.key.serde.type":                 {sample: "java.util.ArrayList", warned: true},
	"default.list.value.serde.type":               {sample: "java.util.ArrayList", warned: true},
	"default.production.exception.handler":        {sample: "com.example.SkipAllHandler", sameAs: "production.exception.handler"},
	"default.timestamp.extractor":                 {sample: "org.apache.kafka.streams.processor.WallclockTimestampExtractor", field: "TimestampExtractor"},
	"default.value.serde":                         {sample: "org.apache.kafka.common.serialization.Serdes$LongSerde", field: "DefaultValueSerde"},
	"deserialization.exception.handler":           {sample: "org.apache.kafka.streams.errors.LogAndContinueExceptionHandler", field: "DeserializationExceptionHandler"},
	"errors.dead.letter.queue.topic.name":         {sample: "dlq", field: "DeadLetterQueueTopic"},
	"max.task.idle.ms":                            {sample: "100", field: "MaxTaskIdle"},
	"max.warmup.replicas":                         {sample: "4", field: "MaxWarmupReplicas"},
	"num.stream.threads":                          {sample: "3", field: "NumStreamThreads"},
	"processing.exception.handler":                {sample: "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler", field: "ProcessingExceptionHandler"},
	"processing.guarantee":                        {sample: "exactly_once_v2", field: "ProcessingGuarantee"},
	// Only the default handler exists; any other class is refused.
	"production.exception.handler":                  {sample: "com.example.SkipAllHandler", warned: true},
	"task.assignor.class":                           {sample: "org.apache.kafka.streams.processor.assignment.assignors.StickyTaskAssignor", field: "TaskAssignor"},
	"replication.factor":                            {sample: "3", field: "ReplicationFactor"},
	"security.protocol":                             {sample: "SSL", client: true},
	"task.timeout.ms":                               {sample: "60000", field: "TaskTimeout"},
	"topology.optimization":                         {sample: "all", field: "Optimizations"},
	"group.protocol":                                {sample: "streams", field: "GroupProtocol"},
	"topology.description.push.enabled":             {sample: "false", field: "TopologyDescriptionPushEnabled"},
	"allow.os.group.write.access":                   {sample: "true", field: "AllowOSGroupWriteAccess"},
	"application.server":                            {sample: "host:7070", field: "ApplicationServer"},
	"buffered.records.per.partition":                {sample: "500", field: "BufferedRecordsPerPartition"},
	"built.in.metrics.version":                      {sample: "2.5", warned: true},
	"commit.interval.ms":                            {sample: "1000", field: "CommitInterval"},
	"config.providers":                              {provider: true},
	"enable.metrics.push":                           {sample: "false", client: true},
	"enable.transactional.statestores":              {sample: "false", warned: true},
	"rack.aware.assignment.non_overlap_cost":        {sample: "10", field: "RackAwareNonOverlapCost"},
	"rack.aware.assignment.strategy":                {sample: "min_traffic", field: "RackAwareAssignmentStrategy"},
	"rack.aware.assignment.tags":                    {sample: "zone\nclient.tag.zone=eu-1a", field: "RackAwareAssignmentTags"},
	"rack.aware.assignment.traffic_cost":            {sample: "10", field: "RackAwareTrafficCost"},
	"repartition.purge.interval.ms":                 {sample: "1000", field: "RepartitionPurgeInterval"},
	"connections.max.idle.ms":                       {sample: "1000", client: true},
	"default.dsl.store":                             {sample: "in_memory", field: "DSLStore"},
	"dsl.store.suppliers.class":                     {sample: "org.apache.kafka.streams.state.BuiltInDslStoreSuppliers$InMemoryDslStoreSuppliers", field: "DSLStore"},
	"dsl.store.format":                              {sample: "HEADERS", field: "DSLStoreHeaders"},
	"default.interactive.query.isolation.level":     {sample: "READ_COMMITTED", field: "IsolationLevel"},
	"default.client.supplier":                       {sample: "com.example.Supplier", warned: true},
	"log.summary.interval.ms":                       {sample: "60000", field: "LogSummaryInterval"},
	"metadata.max.age.ms":                           {sample: "1000", client: true},
	"metrics.num.samples":                           {sample: "3", field: "MetricsNumSamples"},
	"metric.reporters":                              {sample: "com.example.Reporter", warned: true},
	"metrics.recording.level":                       {sample: "DEBUG", field: "MetricsRecordingLevel"},
	"metrics.sample.window.ms":                      {sample: "60000", field: "MetricsSampleWindow"},
	"poll.ms":                                       {sample: "50", field: "PollTimeout"},
	"probing.rebalance.interval.ms":                 {sample: "120000", field: "ProbingRebalanceInterval"},
	"processor.wrapper.class":                       {sample: "com.example.Wrapper", warned: true},
	"receive.buffer.bytes":                          {sample: "1000", client: true},
	"reconnect.backoff.ms":                          {sample: "7", client: true},
	"reconnect.backoff.max.ms":                      {sample: "7000", client: true},
	"retry.backoff.ms":                              {sample: "7", client: true},
	"request.timeout.ms":                            {sample: "7000", client: true},
	"metadata.recovery.strategy":                    {sample: "none", warned: true},
	"metadata.recovery.rebootstrap.trigger.ms":      {sample: "7000", client: true},
	"metadata.cluster.check.enable":                 {sample: "false", client: true},
	"rocksdb.config.setter":                         {sample: "com.example.Setter", warned: true},
	"send.buffer.bytes":                             {sample: "1000", client: true},
	"state.cleanup.delay.ms":                        {sample: "5000", field: "StateCleanupDelay"},
	"state.cleanup.dir.max.age.ms":                  {sample: "86400000", field: "StateCleanupDirMaxAge"},
	"upgrade.from":                                  {sample: "3.4", field: "UpgradeFrom"},
	"windowed.inner.class.serde":                    {sample: "org.apache.kafka.common.serialization.Serdes$StringSerde", warned: true},
	"windowstore.changelog.additional.retention.ms": {sample: "1000", field: "WindowstoreChangelogAdditionalRetention"},
	"window.size.ms":                                {sample: "1000", warned: true},

	StrictConfig:                  {sample: "true", field: "Strict"},
	TopologyConfig:                {sample: "wordcount", field: "Topology"},
	EmbeddedBrokerConfig:          {sample: "true", field: "EmbeddedBroker"},
	HTTPListenConfig:              {sample: "127.0.0.1:8080", field: "HTTPListen"},
	HTTPAuthTokenConfig:           {sample: "t0ken", field: "HTTPAuthToken"},
	HTTPTLSCertFileConfig:         {sample: "/tls/cert.pem\n" + HTTPTLSKeyFileConfig + "=/tls/key.pem", field: "HTTPTLSCertFile"},
	HTTPTLSKeyFileConfig:          {sample: "/tls/key.pem\n" + HTTPTLSCertFileConfig + "=/tls/cert.pem", field: "HTTPTLSKeyFile"},
	ShutdownTimeoutMsConfig:       {sample: "1000", field: "ShutdownTimeout"},
	LogFormatConfig:               {sample: "json", field: "LogFormat"},
	LogLevelConfig:                {sample: "debug", field: "LogLevel"},
	RocksDBWriteBufferBytesConfig: {sample: "1024", field: "RocksDBWriteBufferBytes"},
	FlushMaxLagRecordsConfig:      {sample: "5000", field: "FlushMaxLagRecords"},
	FlushMaxLagMsConfig:           {sample: "1000", field: "FlushMaxLag"},
	StateDirTwinConfig:            {sample: "/var/lib/app", sameAs: StateDirConfig},
	UncommittedMaxBytesTwinConfig: {sample: "1024", sameAs: StatestoreUncommittedMaxBytesConfig},
	IQIsolationLevelConfig:        {sample: "READ_COMMITTED", sameAs: DefaultIQIsolationLevelConfig},
	CommitIntervalTwinConfig:      {sample: "1000", sameAs: CommitIntervalMsConfig},
	ApplicationServerTwinConfig:   {sample: "host:7070", sameAs: ApplicationServerConfig},
	StaticMembershipConfig:        {sample: "false", field: "StaticMembership"},
	ShutdownLeaveGroupConfig:      {sample: "true", field: "LeaveGroupOnClose"},
	UncaughtExceptionConfig:       {sample: "REPLACE_THREAD", field: "UncaughtExceptionResponse"},
	QueryRemoteConfig:             {sample: "redirect", field: "QueryRemote"},
	QueryRemoteTimeoutMsConfig:    {sample: "1000", field: "QueryRemoteTimeout"},
}

// warnsWhenSet are keys Load reports whenever they are set, Kafka's default
// included, and why.
var warnsWhenSet = map[string]string{
	"processing.exception.handler.global.enabled": "deprecated in Kafka 4.3: setting it at all is reported",
	"enable.transactional.statestores":            "Kafka's default, false, is the one value StoatFlow's always transactional stores do not honour",
	"default.dsl.store":                           "deprecated: setting it at all is reported",
	"cache.max.bytes.buffering":                   "deprecated: setting it at all is reported",
	"default.deserialization.exception.handler":   "deprecated: setting it at all is reported",
	"default.production.exception.handler":        "deprecated: setting it at all is reported",
}

// loadLines loads base plus lines.
func loadLines(t *testing.T, lines ...string) (*Config, Diagnostics) {
	t.Helper()
	return load(t, base+strings.Join(lines, "\n")+"\n")
}

// keyValue splits the first line of a "key=value\nextra" entry.
func keyValue(entry string) (string, string) {
	first, _, _ := strings.Cut(entry, "\n")
	k, v, _ := strings.Cut(first, "=")
	return k, v
}

// checkReported fails unless loading entry gives a diagnostic on its key that
// names the key and the value (and, for a warning, what StoatFlow does), and
// unless setting the key to Kafka's default gives none.
func checkReported(t *testing.T, entry string) {
	t.Helper()
	key, value := keyValue(entry)
	_, diags := loadLines(t, entry)
	var found *Diagnostic
	for i, d := range diags {
		if d.Key == key && strings.Contains(d.Message, key) && strings.Contains(d.Message, value) {
			found = &diags[i]
			break
		}
	}
	if found == nil {
		t.Errorf("%q: no diagnostic on %s naming it and %q: %v", entry, key, value, diags)
		return
	}
	if found.Severity == SeverityWarning && !strings.Contains(found.Message+found.Hint, "StoatFlow") {
		t.Errorf("%q: the warning does not say what StoatFlow does instead: %s", entry, found)
	}
	k, ok := StreamsKey(key)
	if !ok || k.NullDefault || k.Required || warnsWhenSet[key] != "" {
		return
	}
	_, diags = loadLines(t, key+"="+k.Default)
	for _, d := range diags {
		if d.Key == key {
			t.Errorf("%s=%s (Kafka's default) is reported: %s", key, k.Default, d)
		}
	}
}

// exported returns the exported fields of c by name.
func exported(c *Config) map[string]any {
	out := map[string]any{}
	v := reflect.ValueOf(c).Elem()
	for i := 0; i < v.NumField(); i++ {
		if f := v.Type().Field(i); f.IsExported() {
			out[f.Name] = v.Field(i).Interface()
		}
	}
	return out
}

func TestEveryConfigFieldIsUsedOrReported(t *testing.T) {
	uses := runtimeFieldReads(t)
	typ := reflect.TypeFor[Config]()
	seen := map[string]bool{}
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		if !f.IsExported() {
			continue
		}
		seen[f.Name] = true
		u, ok := configFields[f.Name]
		if !ok {
			t.Errorf("Config.%s is in neither table: add it to configFields as read by the runtime (by) or reported by Load (warn)", f.Name)
			continue
		}
		if len(u.by) == 0 && len(u.warn) == 0 {
			t.Errorf("Config.%s: its entry names no reader and no reported value", f.Name)
		}
		for _, pkg := range u.by {
			if !uses[pkg][f.Name] {
				t.Errorf("Config.%s: %s does not read it (directly or through compat); fix configFields or the code", f.Name, pkg)
			}
		}
		if len(u.by) == 0 {
			var readers []string
			for pkg, fields := range uses {
				if fields[f.Name] && pkg != "compat" {
					readers = append(readers, pkg)
				}
			}
			sort.Strings(readers)
			if len(readers) > 0 {
				t.Errorf("Config.%s is read by %v but configFields says it is only reported: if the runtime honours it now, add by and drop the warning", f.Name, readers)
			}
		}
		for _, w := range u.warn {
			checkReported(t, w)
		}
	}
	for name := range configFields {
		if !seen[name] {
			t.Errorf("configFields names %s, which is not an exported field of Config", name)
		}
	}
}

func TestEveryCatalogKeyHasAnEffect(t *testing.T) {
	def, _ := loadLines(t)
	defFields := exported(def)
	var names []string
	for _, k := range streamsKeys {
		names = append(names, k.Name)
	}
	for _, k := range stoatflowKeys {
		names = append(names, k.Name)
	}
	for _, name := range names {
		u, ok := catalogKeys[name]
		if !ok {
			t.Errorf("catalog key %s is not in catalogKeys: say which field it sets, or that it reaches the clients, or make Load report it", name)
			continue
		}
		entry := name + "=" + u.sample
		switch {
		case u.field != "":
			if _, ok := configFields[u.field]; !ok {
				t.Errorf("%s: field %s is not in configFields", name, u.field)
			}
			c, diags := loadLines(t, entry)
			if diags.HasErrors() && len(configFields[u.field].warn) == 0 {
				t.Errorf("%s: %v", entry, diags.Errors())
			}
			got, ok := exported(c)[u.field]
			if !ok {
				t.Errorf("%s: Config has no field %s", name, u.field)
			} else if reflect.DeepEqual(got, defFields[u.field]) {
				t.Errorf("%s does not change Config.%s (%v)", entry, u.field, got)
			}
		case u.sameAs != "":
			c1, _ := loadLines(t, entry)
			c2, _ := loadLines(t, u.sameAs+"="+u.sample)
			if !reflect.DeepEqual(exported(c1), exported(c2)) {
				t.Errorf("%s and %s=%s give different configs", entry, u.sameAs, u.sample)
			}
			if reflect.DeepEqual(exported(c1), defFields) && !catalogKeys[u.sameAs].warned {
				t.Errorf("%s changes nothing", entry)
			}
		case u.client:
			c, diags := loadLines(t, entry)
			if len(diags) > 0 {
				t.Errorf("%s: %v", entry, diags)
			}
			// A key reaches the clients' franz-go options, or is one
			// kgoRules says has no effect on a Go client.
			var got, want strings.Builder
			c.WriteClientConfigs(&got, "pid")
			def.WriteClientConfigs(&want, "pid")
			if r, ok := kgoRuleFor(MainConsumer, name); got.String() == want.String() && (!ok || r.outcome != kgoNoEffect || r.why == "") {
				t.Errorf("%s reaches no client", entry)
			}
		case u.warned:
			checkReported(t, entry)
		case u.provider:
			t.Setenv("STOATFLOW_FIELDS_TEST", "from-env")
			p, err := properties.Parse("t.properties", []byte(base+name+"=env\n"+name+".env.class=org.apache.kafka.common.config.provider.EnvVarConfigProvider\nclient.id=${env:STOATFLOW_FIELDS_TEST}\n"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := properties.Resolve(p, nil); err != nil {
				t.Fatal(err)
			}
			if c, diags := Load(p); c.ClientID != "from-env" || len(diags) > 0 {
				t.Errorf("%s=env did not resolve client.id: %q %v", name, c.ClientID, diags)
			}
		default:
			t.Errorf("%s: its catalogKeys entry says nothing", name)
		}
	}
	for name := range catalogKeys {
		if !slices.Contains(names, name) {
			t.Errorf("catalogKeys names %s, which is not a catalog key", name)
		}
	}
}

// runtimeFieldReads returns, per package of the module (its path inside the
// module), the exported Config fields its non-test code reads: directly, or
// through the compat functions and methods it calls (Validate, Load, the
// loader and the printers excepted: checking or printing a setting does not
// honour it). For "compat" itself it is every field compat reads outside
// Validate and the printers.
//
// The packages are type-checked from source against the export data of their
// dependencies (go list -export), so a field is matched by its types.Var, not
// by its name.
func runtimeFieldReads(t *testing.T) map[string]map[string]bool {
	t.Helper()
	runtimeReadsOnce.Do(func() { runtimeReads, runtimeReadsErr = computeFieldReads() })
	if runtimeReadsErr != nil {
		t.Fatal(runtimeReadsErr)
	}
	return runtimeReads
}

var (
	runtimeReadsOnce sync.Once
	runtimeReads     map[string]map[string]bool
	runtimeReadsErr  error
)

type listedPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	CgoFiles   []string
	Export     string
	Module     *struct{ Path string }
	Error      *struct{ Err string }
}

// notUses are the compat functions whose reads of Config fields do not honour
// them: validation, loading and printing.
var notUses = map[string]bool{"Validate": true, "String": true, "GoString": true, "LogValue": true,
	"WriteStreamsConfig": true, "WriteStoatFlowConfig": true, "WriteClientConfigs": true, "WriteSchemaRegistryConfig": true, "UsesSchemaRegistry": true, "Load": true, "LoadFiles": true}

func computeFieldReads() (map[string]map[string]bool, error) {
	root, err := filepath.Abs("..")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("go", "list", "-deps", "-export", "-json=ImportPath,Dir,GoFiles,CgoFiles,Export,Module,Error", "./...")
	cmd.Dir = root
	// The runtime's packages as the sidecar builds them, with cgo, which
	// state/rocksdb needs, also when this test itself runs without it
	// (scripts/test.sh's CGO_ENABLED=0 pass).
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v\n%s", err, stderr.String())
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	first, _, _ := strings.Cut(string(gomod), "\n")
	module, ok := strings.CutPrefix(strings.TrimSpace(first), "module ")
	if !ok {
		return nil, fmt.Errorf("%s/go.mod does not start with its module line", root)
	}
	exports := map[string]string{}
	var mine []listedPackage
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, err
		}
		if p.Error != nil {
			return nil, fmt.Errorf("go list %s: %s", p.ImportPath, p.Error.Err)
		}
		exports[p.ImportPath] = p.Export
		if p.Module != nil && p.Module.Path == module {
			mine = append(mine, p)
		}
	}
	compatPath := module + "/compat"
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := exports[path]
		if !ok || f == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	})

	// fieldsRead walks the files of one package: every read of a Config field
	// and every compat function referred to, per enclosing function.
	type funcFacts struct {
		reads map[string]bool
		calls map[string]bool
	}
	analyse := func(p listedPackage) (map[string]*funcFacts, error) {
		var files []*ast.File
		for _, name := range append(p.GoFiles, p.CgoFiles...) {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, 0)
			if err != nil {
				return nil, err
			}
			files = append(files, f)
		}
		info := &types.Info{Selections: map[*ast.SelectorExpr]*types.Selection{}, Uses: map[*ast.Ident]types.Object{}}
		// FakeImportC: a package's cgo files (state/rocksdb's atomic flush) refer
		// to C names, which only cgo resolves.
		conf := types.Config{Importer: imp, FakeImportC: true}
		if _, err := conf.Check(p.ImportPath, fset, files, info); err != nil {
			return nil, fmt.Errorf("type-check %s: %w", p.ImportPath, err)
		}
		isConfigField := func(v *types.Var) bool {
			if !v.IsField() || v.Pkg() == nil || v.Pkg().Path() != compatPath {
				return false
			}
			obj := v.Pkg().Scope().Lookup("Config")
			if obj == nil {
				return false
			}
			st, ok := obj.Type().Underlying().(*types.Struct)
			if !ok {
				return false
			}
			for i := 0; i < st.NumFields(); i++ {
				if st.Field(i) == v {
					return true
				}
			}
			return false
		}
		facts := map[string]*funcFacts{}
		for _, f := range files {
			for _, decl := range f.Decls {
				name := "<package>"
				if fd, ok := decl.(*ast.FuncDecl); ok {
					name = funcKey(fd)
				}
				ff := facts[name]
				if ff == nil {
					ff = &funcFacts{reads: map[string]bool{}, calls: map[string]bool{}}
					facts[name] = ff
				}
				written := map[*ast.SelectorExpr]bool{}
				ast.Inspect(decl, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.AssignStmt:
						for _, lhs := range n.Lhs {
							if s := assigned(lhs); s != nil {
								written[s] = true
							}
						}
					case *ast.IncDecStmt:
						if s := assigned(n.X); s != nil {
							written[s] = true
						}
					case *ast.SelectorExpr:
						if sel := info.Selections[n]; sel != nil && sel.Kind() == types.FieldVal && !written[n] {
							if v, ok := sel.Obj().(*types.Var); ok && isConfigField(v) {
								ff.reads[v.Name()] = true
							}
						}
					case *ast.Ident:
						if fn, ok := info.Uses[n].(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == compatPath {
							ff.calls[objKey(fn)] = true
						}
					}
					return true
				})
			}
		}
		return facts, nil
	}

	var compatFacts map[string]*funcFacts
	others := map[string]map[string]*funcFacts{}
	for _, p := range mine {
		facts, err := analyse(p)
		if err != nil {
			return nil, err
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		if p.ImportPath == compatPath {
			compatFacts = facts
		} else {
			others[rel] = facts
		}
	}
	if compatFacts == nil {
		return nil, fmt.Errorf("go list did not list %s", compatPath)
	}
	counts := func(fn string) bool {
		base := fn[strings.LastIndex(fn, ".")+1:]
		return !notUses[base] && !strings.HasPrefix(fn, "loader.")
	}
	result := map[string]map[string]bool{"compat": {}}
	for fn, ff := range compatFacts {
		if base := fn[strings.LastIndex(fn, ".")+1:]; notUses[base] && base != "Load" && base != "LoadFiles" {
			continue
		}
		for r := range ff.reads {
			result["compat"][r] = true
		}
	}
	for pkg, facts := range others {
		reads := map[string]bool{}
		seen := map[string]bool{}
		var queue []string
		for _, ff := range facts {
			for r := range ff.reads {
				reads[r] = true
			}
			for c := range ff.calls {
				queue = append(queue, c)
			}
		}
		for len(queue) > 0 {
			fn := queue[0]
			queue = queue[1:]
			if seen[fn] || !counts(fn) {
				continue
			}
			seen[fn] = true
			if ff := compatFacts[fn]; ff != nil {
				for r := range ff.reads {
					reads[r] = true
				}
				for c := range ff.calls {
					queue = append(queue, c)
				}
			}
		}
		result[pkg] = reads
	}
	return result, nil
}

// assigned returns the selector an assignment writes to (x.F, x.F[k]), if any.
func assigned(e ast.Expr) *ast.SelectorExpr {
	for {
		switch x := e.(type) {
		case *ast.SelectorExpr:
			return x
		case *ast.IndexExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// funcKey names a function declaration as objKey names its object:
// "Recv.Name" for methods, "Name" for functions.
func funcKey(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// objKey names a function object: "Recv.Name" for methods, "Name" otherwise.
func objKey(fn *types.Func) string {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return fn.Name()
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name() + "." + fn.Name()
	}
	return fn.Name()
}

func TestNotHonouredKeysAreCatalogKeys(t *testing.T) {
	seen := map[string]bool{}
	for _, n := range notHonouredKeys {
		if _, ok := StreamsKey(n.key); !ok {
			t.Errorf("notHonouredKeys lists %s, which is not a StreamsConfig key", n.key)
		}
		if seen[n.key] {
			t.Errorf("notHonouredKeys lists %s twice", n.key)
		}
		seen[n.key] = true
	}
}
