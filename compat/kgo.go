package compat

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kversion"
)

// ClientOption is one effective franz-go setting of a client: the option,
// its value as printed (secrets hidden) and where it came from.
type ClientOption struct {
	// Option names the franz-go option, e.g. "kgo.FetchMaxWait", or a
	// setting the runtime applies itself, e.g. "PollRecords".
	Option string
	// Value is the value as printed; secrets are never in it.
	Value string
	// From is the .properties key the value came from, or the origin of a
	// default ("Kafka Streams default", "Java client default", "StoatFlow").
	From string
	// build returns the franz-go options; nil for a setting the runtime
	// applies itself.
	build func() ([]kgo.Opt, error)
}

// ClientOptions are the effective franz-go settings of one client.
type ClientOptions struct {
	// Client names the client as the printer shows it.
	Client string
	// Options are sorted by Option.
	Options []ClientOption
}

// Opts returns the franz-go options, loading key and trust stores and
// setting up SASL; a store that cannot be read is an error naming it.
func (o ClientOptions) Opts() ([]kgo.Opt, error) {
	var out []kgo.Opt
	for _, op := range o.Options {
		if op.build == nil {
			continue
		}
		opts, err := op.build()
		if err != nil {
			return nil, fmt.Errorf("compat: %s: %w", o.Client, err)
		}
		out = append(out, opts...)
	}
	return out, nil
}

// WriteTo prints the options, one a line, as `sidecar config` shows them.
func (o ClientOptions) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "franz-go %s options: \n", o.Client)
	for _, op := range o.Options {
		fmt.Fprintf(&b, "\t%s = %s  (%s)\n", op.Option, op.Value, op.From)
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

const (
	fromStreams  = "Kafka Streams default"
	fromJava     = "Java client default"
	fromStoat    = "StoatFlow"
	fromDerived  = "derived"
	maxJavaInt32 = "2147483647"
)

func opt(o ...kgo.Opt) func() ([]kgo.Opt, error) {
	return func() ([]kgo.Opt, error) { return o, nil }
}

// kgoClient collects one client's options while mapKgo reads its keys.
type kgoClient struct {
	l       *loader
	kind    ClientKind
	java    map[string]clientSetting
	options []ClientOption
	// tlsSpec is the TLS setup (nil without TLS), described by tlsDesc and
	// enabled by the key tlsFrom; dial builds the option.
	tlsSpec          *tlsSpec
	tlsDesc, tlsFrom string
}

func (k *kgoClient) add(option, value, from string, build func() ([]kgo.Opt, error)) {
	k.options = append(k.options, ClientOption{Option: option, Value: value, From: from, build: build})
}

// origin is where a setting came from, for the printer: its key, or the
// default it is.
func origin(s clientSetting, def string) string {
	if s.from != "" {
		return s.from
	}
	return def
}

// setting returns the key's setting, or the Java default when it is unset.
func (k *kgoClient) setting(key, javaDefault string) clientSetting {
	if s, ok := k.java[key]; ok {
		if s.from == "" {
			return clientSetting{s.value, fromStreams}
		}
		return s
	}
	return clientSetting{javaDefault, fromJava}
}

func (k *kgoClient) user(key string) (clientSetting, bool) {
	s, ok := k.java[key]
	return s, ok && s.from != ""
}

func ms(v string) time.Duration {
	n, _ := strconv.ParseInt(v, 10, 64)
	return time.Duration(n) * time.Millisecond
}

func atoi32(v string) int32 {
	n, _ := strconv.ParseInt(v, 10, 64)
	return int32(min(max(n, math.MinInt32), math.MaxInt32))
}

// duration adds a millisecond setting: its user value, else the Java default
// when javaDefault is not "".
func duration[O kgo.Opt](k *kgoClient, key, javaDefault, option string, fn func(time.Duration) O) {
	s, ok := k.java[key]
	switch {
	case ok && s.from == "":
		s.from = fromStreams
	case ok:
	case javaDefault != "":
		s = clientSetting{javaDefault, fromJava}
	default:
		return
	}
	d := ms(s.value)
	k.add(option, d.String(), s.from, opt(fn(d)))
}

// metadataAge maps metadata.max.age.ms onto franz-go's refresh interval.
// franz-go keeps that interval within [10ms, 1h] and at or above its least
// gap between refreshes (5s unless lowered): a shorter age lowers the gap
// with it, so that a pattern subscription finds new topics as often as
// the Java consumer would.
func (k *kgoClient) metadataAge() {
	// franz-go waits at least MetadataMinAge (5 s by default) between two
	// metadata requests, also when a request failed and is retried behind
	// a refresh: a produce of a transaction that the coordinator answers
	// CONCURRENT_TRANSACTIONS (the previous transaction's markers still
	// being written, frequent on a replicated cluster), a partition that
	// lost its leader. The Java clients retry such a request after
	// retry.backoff.ms, backing off to retry.backoff.max.ms; a five-second
	// floor stalled every few commits of an exactly_once_v2 application.
	// So the floor is retry.backoff.ms.
	minAge := k.setting("retry.backoff.ms", "100")
	minD := max(ms(minAge.value), 10*time.Millisecond) // franz-go's least
	s, ok := k.user("metadata.max.age.ms")
	if ok {
		d := ms(s.value)
		switch {
		case d > time.Hour:
			k.l.warnf(s.from, "set it to 3600000 or less", "%s = %s is used as 3600000: StoatFlow's Kafka client (franz-go) refreshes metadata at least hourly", s.from, s.value)
			d = time.Hour
		case d < 10*time.Millisecond:
			k.l.warnf(s.from, "set it to 10 or more", "%s = %s is used as 10: StoatFlow's Kafka client (franz-go) refreshes metadata at most every 10 ms", s.from, s.value)
			d = 10 * time.Millisecond
		}
		k.add("kgo.MetadataMaxAge", d.String(), s.from, opt(kgo.MetadataMaxAge(d)))
		if d < minD {
			minD, minAge.from = d, s.from
		}
	}
	k.add("kgo.MetadataMinAge", minD.String(), minAge.from, opt(kgo.MetadataMinAge(minD)))
}

// linger maps linger.ms onto franz-go's linger, which it refuses above a
// minute: a longer one is used as a minute, with a warning.
func (k *kgoClient) linger() {
	s, ok := k.java["linger.ms"]
	if !ok {
		return
	}
	if s.from == "" {
		s.from = fromStreams
	}
	d := ms(s.value)
	if d > time.Minute {
		k.l.warnf(s.from, "set it to 60000 or less", "%s = %s is used as 60000: StoatFlow's Kafka client (franz-go) lingers at most a minute", s.from, s.value)
		d = time.Minute
	}
	k.add("kgo.ProducerLinger", d.String(), s.from, opt(kgo.ProducerLinger(d)))
}

// byteSize adds an int32 byte-size setting the user set.
func byteSize[O kgo.Opt](k *kgoClient, key, option string, fn func(int32) O) {
	if s, ok := k.user(key); ok {
		k.add(option, s.value, s.from, opt(fn(atoi32(s.value))))
	}
}

// mapKgo maps a client's Java-level settings onto franz-go options, reporting
// every key franz-go cannot honour. The options shared by every client of the
// kind are returned; clientOptions adds the per-thread ids.
func (l *loader) mapKgo(kind ClientKind, java map[string]clientSetting, eos bool) []ClientOption {
	k := &kgoClient{l: l, kind: kind, java: java}
	keys := make([]string, 0, len(java))
	for key := range java {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	for _, key := range keys {
		s := java[key]
		r, ok := kgoRuleFor(kind, key)
		if !ok || r.outcome == kgoMapped || s.from == "" {
			continue
		}
		v := javaTrim(s.value)
		shown := v
		if IsSecretKey(key) {
			shown = "[hidden]"
		}
		switch {
		case l.reported(s.from):
			// StreamsConfig's own check already said what becomes of it.
		case r.outcome == kgoWarn && v != r.quiet && v != "":
			l.warnf(s.from, "remove it", "%s = %s is ignored: StoatFlow's Kafka client (franz-go) has no such setting; %s", s.from, shown, r.why)
		case r.outcome == kgoError && v != r.quiet && v != "":
			l.errorf(s.from, "remove it", "%s = %s cannot be honoured by StoatFlow's Kafka client: %s", s.from, shown, r.why)
		}
	}

	servers := strings.Split(java["bootstrap.servers"].value, ",")
	k.add("kgo.SeedBrokers", strings.Join(servers, ","), BootstrapServersConfig, opt(kgo.SeedBrokers(servers...)))
	k.common()
	k.security()
	k.dial()
	switch {
	case kind.isConsumer():
		k.consumer(eos)
	case kind == Producer:
		k.producer(eos)
	case kind == Admin:
		if s, ok := k.user("retries"); ok {
			n, _ := strconv.Atoi(s.value)
			k.add("kgo.RequestRetries", s.value, s.from, opt(kgo.RequestRetries(n)))
		}
	}
	return k.options
}

// common maps the keys every client has.
func (k *kgoClient) common() {
	if s, ok := k.user("client.dns.lookup"); ok && s.value == "resolve_canonical_bootstrap_servers_only" {
		k.l.warnf(s.from, "remove it", "%s = %s is ignored: StoatFlow's Kafka client (franz-go) has no such setting; it connects to every address a bootstrap server's name resolves to, without canonical name lookups", s.from, s.value)
	}
	if s, ok := k.user("metadata.recovery.strategy"); ok && strings.EqualFold(s.value, "none") {
		k.l.warnf(s.from, "remove it", "%s = %s is ignored: StoatFlow's Kafka client (franz-go) has no such setting; it goes back to the bootstrap servers whenever it knows no live broker", s.from, s.value)
	}
	duration(k, "connections.max.idle.ms", "", "kgo.ConnIdleTimeout", kgo.ConnIdleTimeout)
	k.clusterCheck()
	k.metadataAge()
	if k.kind != Producer {
		// A producer's request.timeout.ms is the broker's wait for acks
		// (producer below); elsewhere it bounds a request beyond its own wait.
		duration(k, "request.timeout.ms", "", "kgo.RequestTimeoutOverhead", kgo.RequestTimeoutOverhead)
	}
	// The Java clients' backoff, also when unset: franz-go's own (250 ms
	// to 2.5 s) also spaces its reconnections to a broker, and after a
	// broker was away for a while kept a client from it up to 2.5 s longer
	// than a Java client's 1 s.
	base, limit := k.setting("retry.backoff.ms", "100"), k.setting("retry.backoff.max.ms", "1000")
	from := base.from
	switch {
	case base.from == fromJava || base.from == fromStreams:
		from = limit.from
	case limit.from != fromJava && limit.from != fromStreams:
		from += ", " + limit.from
	}
	b, m := ms(base.value), ms(limit.value)
	k.add("kgo.RetryBackoffFn", fmt.Sprintf("exponential %s to %s, 20%% jitter", b, max(b, m)), from, opt(kgo.RetryBackoffFn(javaBackoff(b, m))))
	if s, ok := k.java["enable.metrics.push"]; ok && s.value == "false" {
		k.add("kgo.DisableClientMetrics", "true", origin(s, fromStreams), opt(kgo.DisableClientMetrics()))
	}
}

// clusterCheck maps metadata.cluster.check.enable (KIP-1242). franz-go, as
// a Java client of 4.4, names the cluster id and node id it expects in its
// ApiVersions request (v5) to every broker it learnt from metadata, and a
// broker that is another (an address reused after a broker or cluster moved)
// answers REBOOTSTRAP_REQUIRED, upon which the client forgets the brokers it
// knows and asks the bootstrap servers again. Turned off, the client asks
// ApiVersions at v4 at most, which carries neither. (The Java clients ignore
// the key under metadata.recovery.strategy=none; StoatFlow's client always
// rebootstraps, as common says, so the key always applies.)
func (k *kgoClient) clusterCheck() {
	s, ok := k.user("metadata.cluster.check.enable")
	if !ok || s.value != "false" {
		return
	}
	k.add("kgo.MaxVersions", fmt.Sprintf("ApiVersions v%d at most (no cluster and node check)", apiVersionsWithoutClusterCheck), s.from,
		func() ([]kgo.Opt, error) {
			v := kversion.Stable()
			v.SetMaxKeyVersion(apiVersionsKey, apiVersionsWithoutClusterCheck)
			return []kgo.Opt{kgo.MaxVersions(v)}, nil
		})
}

const (
	// apiVersionsKey is the ApiVersions request's API key.
	apiVersionsKey = 18
	// apiVersionsWithoutClusterCheck is the last ApiVersions version
	// before KIP-1242's ClusterId and NodeId fields.
	apiVersionsWithoutClusterCheck = 4
)

// javaBackoff is the Java clients' exponential retry backoff: base·2^(n-1),
// at most limit (when limit > base), with ±20% jitter.
func javaBackoff(base, limit time.Duration) func(int) time.Duration {
	return func(tries int) time.Duration {
		d := float64(base)
		if limit > base {
			d = math.Min(float64(base)*math.Pow(2, float64(max(tries-1, 0))), float64(limit))
		}
		return time.Duration(d * (0.8 + 0.4*rand.Float64()))
	}
}

// consumer maps the consumer keys (main, restore and global consumers).
func (k *kgoClient) consumer(eos bool) {
	if k.kind == MainConsumer {
		duration(k, "session.timeout.ms", "", "kgo.SessionTimeout", kgo.SessionTimeout)
		duration(k, "heartbeat.interval.ms", "", "kgo.HeartbeatInterval", kgo.HeartbeatInterval)
		// The Java consumer's rebalance timeout is max.poll.interval.ms
		// (5 minutes); franz-go's own default is one minute.
		duration(k, "max.poll.interval.ms", "300000", "kgo.RebalanceTimeout", kgo.RebalanceTimeout)
		k.add("kgo.DisableAutoCommit", "true", fromStreams, opt(kgo.DisableAutoCommit()))
		k.add("kgo.Balancers", "range", fromStoat, opt(kgo.Balancers(kgo.RangeBalancer())))
		if eos {
			// franz-go's group consumers always fetch offsets with
			// require_stable (its RequireStableFetchOffsets is a no-op).
			k.add("require_stable offset fetches", "true", ProcessingGuaranteeConfig+" (always, in franz-go)", nil)
		}
	}
	mpr := k.setting("max.poll.records", "500")
	k.add("PollRecords", mpr.value, mpr.from, nil)
	iso := k.setting("isolation.level", "read_uncommitted")
	if iso.value == "read_committed" {
		if iso.from == fromStreams {
			iso.from = ProcessingGuaranteeConfig
		}
		k.add("kgo.FetchIsolationLevel", "read_committed", iso.from, opt(kgo.FetchIsolationLevel(kgo.ReadCommitted())))
	} else {
		k.add("kgo.FetchIsolationLevel", "read_uncommitted", iso.from, opt(kgo.FetchIsolationLevel(kgo.ReadUncommitted())))
	}
	reset := k.setting("auto.offset.reset", "latest")
	switch v := strings.ToLower(reset.value); {
	case v == "earliest":
		k.add("kgo.ConsumeResetOffset", "start", reset.from, opt(kgo.ConsumeResetOffset(kgo.NewOffset().AtStart())))
	case v == "latest":
		k.add("kgo.ConsumeResetOffset", "end", reset.from, opt(kgo.ConsumeResetOffset(kgo.NewOffset().AtEnd())))
	case v == "none":
		k.add("kgo.ConsumeResetOffset", "none (an out-of-range offset is an error)", reset.from, opt(kgo.ConsumeResetOffset(kgo.NoResetOffset())))
	default:
		// by_duration: Java resolves the duration each time it resets;
		// franz-go's offsets are fixed when the client is made, so a
		// partition reset later would start at the wrong time.
		k.l.errorf(reset.from, "use earliest, latest or none", "%s = %s cannot be honoured by StoatFlow's Kafka client: franz-go has no reset relative to the time of the reset", reset.from, reset.value)
	}
	if k.kind == RestoreConsumer {
		// The end of a changelog shows only once a fetch comes back empty,
		// and the broker holds an empty fetch for the whole wait.
		if s, ok := k.java["fetch.max.wait.ms"]; ok {
			k.add("kgo.FetchMaxWait", ms(s.value).String(), origin(s, fromStreams), opt(kgo.FetchMaxWait(ms(s.value))))
		} else {
			k.add("kgo.FetchMaxWait", (restoreFetchWait).String(), fromStoat+" (ends of changelogs show sooner)", opt(kgo.FetchMaxWait(restoreFetchWait)))
		}
	} else {
		// franz-go's own default is 5 s; the Java consumer's 500 ms.
		duration(k, "fetch.max.wait.ms", "500", "kgo.FetchMaxWait", kgo.FetchMaxWait)
	}
	byteSize(k, "fetch.min.bytes", "kgo.FetchMinBytes", kgo.FetchMinBytes)
	byteSize(k, "fetch.max.bytes", "kgo.FetchMaxBytes", kgo.FetchMaxBytes)
	if _, ok := k.user("fetch.max.bytes"); !ok && k.kind == MainConsumer {
		// franz-go decodes a whole fetch response into records at once,
		// where the Java consumer keeps the response's bytes and decodes
		// max.poll.records of them at a time: a 50 MiB fetch of small
		// records would hold several times that. The main consumer asks
		// for one partition's worth instead (franz-go would clamp a larger
		// max.partition.fetch.bytes to it).
		n, from := mainFetchMaxBytes, "StoatFlow: franz-go decodes a whole fetch at once, the Java consumer max.poll.records at a time"
		if pm := k.setting("max.partition.fetch.bytes", "1048576"); atoi32(pm.value) > n {
			n, from = atoi32(pm.value), pm.from+"; "+from
		}
		k.add("kgo.FetchMaxBytes", strconv.Itoa(int(n)), from, opt(kgo.FetchMaxBytes(n)))
	}
	byteSize(k, "max.partition.fetch.bytes", "kgo.FetchMaxPartitionBytes", kgo.FetchMaxPartitionBytes)
	if s, ok := k.user("check.crcs"); ok && s.value == "false" {
		k.add("kgo.DisableFetchCRCValidation", "true", s.from, opt(kgo.DisableFetchCRCValidation()))
	}
	if s, ok := k.user("client.rack"); ok && s.value != "" {
		k.add("kgo.Rack", s.value, s.from, opt(kgo.Rack(s.value)))
	}
}

// restoreFetchWait is the restore consumer's fetch wait unless the user sets
// fetch.max.wait.ms for it.
const restoreFetchWait = 50 * time.Millisecond

// mainFetchMaxBytes is the main consumer's kgo.FetchMaxBytes when
// fetch.max.bytes is not set: 1 MiB, the Java default of
// max.partition.fetch.bytes.
const mainFetchMaxBytes int32 = 1 << 20

// producer maps the producer keys.
func (k *kgoClient) producer(eos bool) {
	acks := k.setting("acks", "all")
	switch acks.value {
	case "0":
		k.add("kgo.RequiredAcks", "none", acks.from, opt(kgo.RequiredAcks(kgo.NoAck())))
	case "1":
		k.add("kgo.RequiredAcks", "leader", acks.from, opt(kgo.RequiredAcks(kgo.LeaderAck())))
	default:
		k.add("kgo.RequiredAcks", "all", acks.from, opt(kgo.RequiredAcks(kgo.AllISRAcks())))
	}
	idem := k.java["enable.idempotence"].value == "true"
	if idem {
		from := origin(k.java["enable.idempotence"], fromJava)
		if eos && from == fromJava {
			from = ProcessingGuaranteeConfig
		}
		k.add("idempotent writes", "true", from, nil)
	} else {
		// Off by the user's choice, or because acks or retries=0 turn it
		// off in the Java producer (checkIdempotence).
		from := origin(k.java["enable.idempotence"], "")
		for _, key := range []string{"acks", "retries"} {
			if s, ok := k.user(key); ok && from == "" {
				from = s.from + " (no idempotence, as in the Java producer)"
			}
		}
		k.add("kgo.DisableIdempotentWrite", "true", from, opt(kgo.DisableIdempotentWrite()))
		inflight := k.setting("max.in.flight.requests.per.connection", "5")
		n, _ := strconv.Atoi(inflight.value)
		k.add("kgo.MaxProduceRequestsInflightPerBroker", inflight.value, inflight.from, opt(kgo.MaxProduceRequestsInflightPerBroker(n)))
	}
	k.linger()
	// franz-go cuts a batch only at max.request.size; the producer itself
	// sends a partition once it buffers batch.size bytes (Config.ProducerBatchBytes).
	bs := k.setting("batch.size", "16384")
	k.add("send a partition at batch.size bytes", bs.value, bs.from, nil)
	duration(k, "request.timeout.ms", "30000", "kgo.ProduceRequestTimeout", kgo.ProduceRequestTimeout)
	// franz-go times a record out by its Timestamp, and a stream's records
	// carry their event time, which may be far in the past: any bound would
	// fail such records at once. So no record times out; a produce request
	// is still bounded by request.timeout.ms and retried.
	if s, ok := k.user("delivery.timeout.ms"); ok && s.value != maxJavaInt32 {
		k.l.warnf(s.from, "remove it", "%s = %s is ignored: StoatFlow's Kafka client (franz-go) would time a record out by its timestamp, which in a stream is the event time, so records never time out", s.from, s.value)
	}
	dt := k.setting("delivery.timeout.ms", "120000")
	k.add("kgo.RecordDeliveryTimeout", "none (franz-go would measure it from the record's event time)", dt.from, nil)
	if s, ok := k.user("retries"); ok && s.value != maxJavaInt32 {
		n, _ := strconv.Atoi(s.value)
		k.add("kgo.RecordRetries", s.value, s.from, opt(kgo.RecordRetries(n)))
	}
	// franz-go's own default is the old broker limit, 1000012 bytes.
	mr := k.setting("max.request.size", "1048576")
	k.add("kgo.ProducerBatchMaxBytes", mr.value, mr.from, opt(kgo.ProducerBatchMaxBytes(atoi32(mr.value))))
	if s, ok := k.user("buffer.memory"); ok {
		n, _ := strconv.ParseInt(s.value, 10, 64)
		k.add("kgo.MaxBufferedBytes", s.value, s.from, opt(kgo.MaxBufferedBytes(int(min(n, math.MaxInt32)))))
	}
	if eos {
		tt := k.setting("transaction.timeout.ms", "60000")
		k.add("kgo.TransactionTimeout", ms(tt.value).String(), tt.from, opt(kgo.TransactionTimeout(ms(tt.value))))
	}
	k.compression()
}

// compression maps compression.type and the codec's level. The Java
// producer compresses nothing by default; franz-go would use snappy.
func (k *kgoClient) compression() {
	ct := k.setting("compression.type", "none")
	codec, value := kgo.NoCompression(), ct.value
	levelKey := ""
	switch ct.value {
	case "gzip":
		codec, levelKey = kgo.GzipCompression(), "compression.gzip.level"
	case "snappy":
		codec = kgo.SnappyCompression()
	case "lz4":
		codec, levelKey = kgo.Lz4Compression(), "compression.lz4.level"
	case "zstd":
		codec, levelKey = kgo.ZstdCompression(), "compression.zstd.level"
	}
	from := ct.from
	if s, ok := k.user(levelKey); ok {
		n, _ := strconv.Atoi(s.value)
		switch ct.value {
		case "gzip":
			codec = codec.WithLevel(n)
		case "lz4":
			// Java's lz4 levels run 1 to 17 (9 by default); the Go
			// encoder's from 1 to 9.
			codec = codec.WithLevel(int(lz4.CompressionLevel(1 << (8 + min(max(n, 1), 9)))))
		case "zstd":
			codec = codec.WithLevel(int(zstd.EncoderLevelFromZstd(n)))
		}
		value += " level " + s.value
		from += ", " + s.from
	}
	k.add("kgo.ProducerBatchCompression", value, from, opt(kgo.ProducerBatchCompression(codec)))
}

// kgoOptions returns a client's options for one thread (0 for clients of the
// instance): the shared ones and the derived ids.
func (c *Config) kgoOptions(kind ClientKind, processID string, thread int) ClientOptions {
	o := ClientOptions{Options: slices.Clone(c.kgo[kind])}
	add := func(option, value, from string, build func() ([]kgo.Opt, error)) {
		o.Options = append(o.Options, ClientOption{Option: option, Value: value, From: from, build: build})
	}
	clientFrom := ClientIDConfig
	if c.ClientID == "" {
		clientFrom = ApplicationIDConfig + " and the process id"
	}
	id := func(s string) { add("kgo.ClientID", s, clientFrom, opt(kgo.ClientID(s))) }
	switch kind {
	case MainConsumer:
		o.Client = fmt.Sprintf("main consumer (StreamThread-%d)", thread)
		id(c.ThreadClientID(processID, thread) + "-consumer")
		if c.GroupProtocol == GroupProtocolStreams {
			// The thread is the streams group's member and assigns the
			// consumer its partitions: no classic group's settings.
			o.Options = slices.DeleteFunc(o.Options, func(op ClientOption) bool { return classicGroupOptions[op.Option] })
			add("streams group member", c.ApplicationID, "group.protocol=streams (the stream thread heartbeats; partitions assigned directly)", nil)
		} else {
			add("kgo.ConsumerGroup", c.ApplicationID, ApplicationIDConfig, opt(kgo.ConsumerGroup(c.ApplicationID)))
		}
		if v := c.GroupInstanceID(thread); v != "" {
			from := StaticMembershipConfig
			if c.groupInstance.value != "" {
				from = c.groupInstance.from + " and the thread"
			}
			if c.GroupProtocol == GroupProtocolStreams {
				add("streams group instance id", v, from, nil)
			} else {
				add("kgo.InstanceID", v, from, opt(kgo.InstanceID(v)))
			}
		}
	case RestoreConsumer:
		o.Client = fmt.Sprintf("restore consumer (StreamThread-%d)", thread)
		id(c.ThreadClientID(processID, thread) + "-restore-consumer")
	case GlobalConsumer:
		o.Client = "global consumer"
		id(c.EffectiveClientID(processID) + "-GlobalStreamThread-global-consumer")
	case Producer:
		o.Client = fmt.Sprintf("producer (StreamThread-%d)", thread)
		id(c.ThreadClientID(processID, thread) + "-producer")
		if c.ExactlyOnce() {
			tid := c.TransactionalID(processID, thread)
			add("kgo.TransactionalID", tid, ApplicationIDConfig+", the process id and the thread", opt(kgo.TransactionalID(tid)))
		}
	case Admin:
		o.Client = "admin"
		id(c.EffectiveClientID(processID) + "-admin")
	}
	slices.SortStableFunc(o.Options, func(a, b ClientOption) int { return strings.Compare(a.Option, b.Option) })
	return o
}

// ClientOptions returns the effective franz-go settings of one client of
// stream thread thread (ignored for the global consumer and the admin).
func (c *Config) ClientOptions(kind ClientKind, processID string, thread int) ClientOptions {
	return c.kgoOptions(kind, processID, thread)
}

// classicGroupOptions are the main consumer's options of a classic group,
// which a streams group's member does not use.
var classicGroupOptions = map[string]bool{
	"kgo.SessionTimeout": true, "kgo.HeartbeatInterval": true, "kgo.RebalanceTimeout": true,
	"kgo.DisableAutoCommit": true, "kgo.Balancers": true,
}

// RebalanceTimeout is the main consumer's max.poll.interval.ms (default
// 5 minutes), which a streams group's member sends as its rebalance
// timeout, as Kafka Streams does.
func (c *Config) RebalanceTimeout() time.Duration {
	for _, o := range c.kgo[MainConsumer] {
		if o.Option == "kgo.RebalanceTimeout" {
			if d, err := time.ParseDuration(o.Value); err == nil {
				return d
			}
		}
	}
	return 5 * time.Minute
}

// SessionTimeout is the main consumer's session.timeout.ms (default 45
// seconds, the Java consumer's and franz-go's): how long a classic group's
// coordinator keeps a member that stopped heartbeating.
func (c *Config) SessionTimeout() time.Duration {
	for _, o := range c.kgo[MainConsumer] {
		if o.Option == "kgo.SessionTimeout" {
			if d, err := time.ParseDuration(o.Value); err == nil {
				return d
			}
		}
	}
	return 45 * time.Second
}

// MainConsumerRack is the main consumer's client.rack ("" when unset), which
// a stream thread also reports in its group subscription for rack-aware
// assignment.
func (c *Config) MainConsumerRack() string {
	for _, o := range c.kgo[MainConsumer] {
		if o.Option == "kgo.Rack" {
			return o.Value
		}
	}
	return ""
}

// MainConsumerOptions returns the franz-go options of stream thread thread's
// main consumer: group application.id, client id
// <clientId>-StreamThread-<n>-consumer, the static member id when there is
// one, the group timeouts, no auto commit and, under exactly_once_v2,
// read_committed fetches of stable offsets. The runtime adds the group's
// assignor (Kafka Streams' "stream" protocol).
func (c *Config) MainConsumerOptions(processID string, thread int) ([]kgo.Opt, error) {
	return c.kgoOptions(MainConsumer, processID, thread).Opts()
}

// RestoreConsumerOptions returns the franz-go options of stream thread
// thread's restore consumer: no group, no offset reset (an out-of-range
// changelog offset is an error), and a 50 ms fetch wait unless the user set
// fetch.max.wait.ms for it.
func (c *Config) RestoreConsumerOptions(processID string, thread int) ([]kgo.Opt, error) {
	return c.kgoOptions(RestoreConsumer, processID, thread).Opts()
}

// GlobalConsumerOptions returns the franz-go options of the global thread's
// consumer.
func (c *Config) GlobalConsumerOptions(processID string) ([]kgo.Opt, error) {
	return c.kgoOptions(GlobalConsumer, processID, 0).Opts()
}

// ProducerOptions returns the franz-go options of stream thread thread's
// producer: under exactly_once_v2 transactional id
// <application.id>-<processID>-<n> and the transaction timeout; acks, linger,
// compression, idempotence and the delivery timeout. It sets no partitioner:
// the runtime chooses partitions itself.
func (c *Config) ProducerOptions(processID string, thread int) ([]kgo.Opt, error) {
	return c.kgoOptions(Producer, processID, thread).Opts()
}

// AdminOptions returns the franz-go options of the admin client.
func (c *Config) AdminOptions(processID string) ([]kgo.Opt, error) {
	return c.kgoOptions(Admin, processID, 0).Opts()
}
