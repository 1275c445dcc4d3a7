package httpapi

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/stoatflow/stoatflow/internal/storeformat"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
)

// atomicInstance holds the running application, set once it exists.
type atomicInstance struct{ v atomic.Pointer[Instance] }

func (a *atomicInstance) set(in Instance) { a.v.Store(&in) }

func (a *atomicInstance) get() Instance {
	if p := a.v.Load(); p != nil {
		return *p
	}
	return nil
}

// query is one store request, resolved: the store's spec and serdes, the
// isolation level and the result limit.
type query struct {
	s     *Server
	r     *http.Request
	name  string
	spec  *kstreams.StoreSpec
	key   serde.Untyped
	val   serde.Untyped
	iso   state.IsolationLevel
	limit int
	// after is the continuation a key-value listing resumes past (its
	// after parameter): results start at the first key above it.
	after []byte
	// paged marks a key-value listing, whose truncated answer carries the
	// continuation (next).
	paged bool
}

// newQuery resolves the store named in the path and the common parameters.
func (s *Server) newQuery(r *http.Request, kind kstreams.StoreKind) (*query, error) {
	name := r.PathValue("store")
	spec, ok := s.cfg.Topology.Store(name)
	if !ok {
		return nil, errorf(http.StatusNotFound, "no store %q in the topology", name)
	}
	if spec.Kind != kind {
		return nil, errorf(http.StatusBadRequest, "store %q is a %s store; this route queries %s stores", name, spec.Kind, kind)
	}
	key, val, err := s.cfg.Topology.StoreSerdes(name, s.cfg.DefaultKeySerde, s.cfg.DefaultValueSerde)
	if err != nil {
		return nil, errorf(http.StatusInternalServerError, "%v", err)
	}
	q := &query{s: s, r: r, name: name, spec: spec, key: key, val: val, iso: s.cfg.Isolation, limit: s.cfg.MaxResults}
	params := r.URL.Query()
	if v := params.Get("isolation"); v != "" {
		switch strings.ToUpper(v) {
		case "READ_COMMITTED":
			q.iso = state.ReadCommitted
		case "READ_UNCOMMITTED":
			q.iso = state.ReadUncommitted
		default:
			return nil, errorf(http.StatusBadRequest, "isolation %q: must be READ_COMMITTED or READ_UNCOMMITTED", v)
		}
	}
	if v := params.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return nil, errorf(http.StatusBadRequest, "limit %q: must be a positive integer", v)
		}
		// A limit above the ceiling is clamped to it: the answer says
		// truncated and, for a key-value listing, where to go on.
		q.limit = min(n, s.cfg.MaxResults)
	}
	return q, nil
}

// serializeKey turns a key given as text into the store's key bytes: the
// text is converted to the Go type the key serde takes.
func (q *query) serializeKey(param, text string) ([]byte, error) {
	v, err := parseAs(q.key, text)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "%s %q: %v", param, text, err)
	}
	b, err := q.key.SerializeAny(q.changelogTopic(), v)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "%s %q: %v", param, text, err)
	}
	return b, nil
}

// changelogTopic is the topic the store's serdes are called with: the
// store's changelog, <application.id>-<store>-changelog, as in the tasks
// that wrote the bytes (Kafka Streams' metered stores do the same for
// interactive queries). A serde that depends on the topic, such as a schema
// registry serde, reads the bytes as they were written only with that name.
func (q *query) changelogTopic() string {
	return kstreams.ChangelogTopic(q.s.cfg.ApplicationID, q.name)
}

// parseAs converts text to the value type of s.
func parseAs(s serde.Untyped, text string) (any, error) {
	if _, ok := serde.Typed[string](s); ok {
		return text, nil
	}
	if _, ok := serde.Typed[int64](s); ok {
		return strconv.ParseInt(text, 10, 64)
	}
	if _, ok := serde.Typed[int32](s); ok {
		n, err := strconv.ParseInt(text, 10, 32)
		return int32(n), err
	}
	if _, ok := serde.Typed[int16](s); ok {
		n, err := strconv.ParseInt(text, 10, 16)
		return int16(n), err
	}
	if _, ok := serde.Typed[float64](s); ok {
		return strconv.ParseFloat(text, 64)
	}
	if _, ok := serde.Typed[float32](s); ok {
		f, err := strconv.ParseFloat(text, 32)
		return float32(f), err
	}
	if _, ok := serde.Typed[bool](s); ok {
		return strconv.ParseBool(text)
	}
	if _, ok := serde.Typed[serde.UUIDValue](s); ok {
		return serde.UUIDValue(text), nil
	}
	if _, ok := serde.Typed[[]byte](s); ok {
		return []byte(text), nil
	}
	if _, ok := serde.Typed[serde.BytesValue](s); ok {
		return serde.BytesValue(text), nil
	}
	return nil, errBadKeyType
}

var errBadKeyType = &apiError{code: http.StatusBadRequest, msg: "the store's key serde takes a type that cannot be given as text"}

// rows gathers a query's results across the store's partitions.
type rows struct {
	q    *query
	es   []entry
	keys [][]byte // each entry's key bytes, for ordering across partitions
}

// add takes up to limit+1 results from it and closes it: the first limit
// entries overall are among each partition's first limit, and one more
// tells that there were more. bounds gives the current window or session,
// nil for key-value results.
func (rs *rows) add(it state.Iterator, partition int32, timestamped bool, bounds func() (start, end int64)) error {
	defer it.Close()
	for n := 0; n <= rs.q.limit && it.Next(); {
		if rs.q.after != nil && bytes.Compare(it.Key(), rs.q.after) <= 0 {
			continue // before the continuation: a prefix scan cannot seek past it
		}
		n++
		e := entry{Partition: partition}
		if bounds != nil {
			start, end := bounds()
			e.WindowStart, e.WindowEnd = &start, &end
		}
		if err := rs.q.decode(&e, it.Key(), it.Value(), timestamped); err != nil {
			return err
		}
		rs.es = append(rs.es, e)
		rs.keys = append(rs.keys, bytes.Clone(it.Key()))
	}
	return it.Err()
}

// entry is one result, as JSON.
type entry struct {
	Key         any    `json:"key"`
	Value       any    `json:"value"`
	Timestamp   *int64 `json:"timestamp,omitempty"`
	WindowStart *int64 `json:"windowStart,omitempty"`
	WindowEnd   *int64 `json:"windowEnd,omitempty"`
	Partition   int32  `json:"partition"`
}

// decode fills e's key and value from store bytes.
func (q *query) decode(e *entry, key, value []byte, timestamped bool) error {
	k, err := q.key.DeserializeAny(q.changelogTopic(), key)
	if err != nil {
		return err
	}
	if e.Key, err = jsonValue(k); err != nil {
		return fmt.Errorf("httpapi: store %s: key: %w", q.name, err)
	}
	if timestamped {
		ts, raw, err := storeformat.SplitTimestamped(value)
		if err != nil {
			return fmt.Errorf("httpapi: store %s: %w", q.name, err)
		}
		e.Timestamp = &ts
		value = raw
	}
	v, err := q.val.DeserializeAny(q.changelogTopic(), value)
	if err != nil {
		return err
	}
	if e.Value, err = jsonValue(v); err != nil {
		return fmt.Errorf("httpapi: store %s: value: %w", q.name, err)
	}
	return nil
}

// jsonValue is v as a result renders it: a Protobuf message in Protobuf's
// JSON mapping (field json names, 64-bit integers as strings, enums by
// name, well-known types in their JSON forms), as Java's JsonFormat prints
// it, rather than the Go struct's fields; anything else as encoding/json
// renders it (an Avro GenericRecord as its value, a JSON Schema value as
// its Go type's JSON).
func jsonValue(v any) (any, error) {
	m, ok := v.(proto.Message)
	if !ok {
		return v, nil
	}
	b, err := protojson.Marshal(m)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(b), nil
}

// partitions returns the local store partitions to read: all of them, or
// only the one key maps to. A key whose partition another instance hosts
// is a *remoteKey (forwarded or redirected by fail); one that is not
// queryable anywhere now is a 503 carrying the key's metadata.
func (q *query) partitions(key []byte) ([]streams.LocalStore, error) {
	in := q.s.ins.get()
	if in == nil {
		return nil, errorf(http.StatusServiceUnavailable, "the application is starting; retry")
	}
	local := in.LocalStores(q.name)
	if len(local) == 1 && local[0].Global {
		return local, nil // a global store holds every key here
	}
	slices.SortFunc(local, func(a, b streams.LocalStore) int { return int(a.Partition - b.Partition) })
	if key == nil {
		if len(local) == 0 {
			return nil, q.notHosted(in, nil, -1, -1)
		}
		return local, nil
	}
	if ms, ok := in.(metadataSource); ok {
		md, err := ms.MetadataForKey(q.name, key)
		switch {
		case err == nil && md.Partition >= 0:
			return q.routeKey(in, local, md)
		case err == nil, errors.Is(err, streams.ErrUnknownStore):
			// No host maps (a group still on the range protocol of
			// earlier StoatFlow releases), or no stream task hosts the
			// store by the topology's routing: the partition count
			// decides, as without host maps.
		default:
			return nil, q.unavailable(in, fmt.Sprintf("%v; retry", err), nil)
		}
	}
	n, err := q.partitionCount()
	if err != nil {
		// Without the partition count the key is looked for everywhere here.
		if len(local) == 0 {
			return nil, q.notHosted(in, key, -1, -1)
		}
		return local, nil
	}
	p := kstreams.DefaultPartition(key, n)
	for _, ls := range local {
		if ls.Partition == p {
			return []streams.LocalStore{ls}, nil
		}
	}
	return nil, q.notHosted(in, key, p, n)
}

func (q *query) partitionCount() (int, error) {
	if q.s.cfg.Partitions == nil {
		return 0, errorf(http.StatusServiceUnavailable, "partition count unknown")
	}
	ctx, cancel := context.WithTimeout(q.r.Context(), 10*time.Second)
	defer cancel()
	return q.s.cfg.Partitions(ctx, q.name)
}

// notHosted is the 503 for a store partition that is restoring or lives on
// another instance.
func (q *query) notHosted(in Instance, key []byte, partition int32, n int) error {
	st := in.State()
	msg := "store " + q.name + " is not queryable here: "
	if st != streams.Running {
		msg += "the instance is " + st.String() + " (restoring or rebalancing); retry"
	} else if key != nil {
		msg += "the key's partition is hosted by another instance"
	} else {
		msg += "no partition of it is hosted by this instance"
	}
	e := errorf(http.StatusServiceUnavailable, "%s", msg)
	e.extra = map[string]any{"state": st.String(), "applicationServer": q.s.cfg.ApplicationServer}
	if partition >= 0 {
		e.extra["partition"] = partition
		e.extra["partitions"] = n
	}
	return e
}

// result is a listing response.
type result struct {
	Store     string  `json:"store"`
	Isolation string  `json:"isolation"`
	Results   []entry `json:"results"`
	// Truncated is true when more entries matched than the limit.
	Truncated bool `json:"truncated"`
	// Next, on a truncated key-value listing, is the continuation: the
	// same request with after=<next> answers the entries past the last one
	// here. It is opaque to the client (the last key's serialized bytes,
	// base64url), so that it works for every key type.
	Next string `json:"next,omitempty"`
}

// finish sorts entries from several partitions by their serialized key
// (then window start), cuts them to the limit and writes them.
func (q *query) finish(w http.ResponseWriter, es []entry, keys [][]byte) {
	idx := make([]int, len(es))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if c := bytes.Compare(keys[a], keys[b]); c != 0 {
			return c
		}
		wa, wb := es[a].WindowStart, es[b].WindowStart
		if wa != nil && wb != nil {
			return int(max(min(*wa-*wb, 1), -1))
		}
		return 0
	})
	out := make([]entry, 0, min(len(es), q.limit))
	for _, i := range idx {
		if len(out) == q.limit {
			break
		}
		out = append(out, es[i])
	}
	res := result{Store: q.name, Isolation: q.iso.String(), Results: out, Truncated: len(es) > q.limit}
	if res.Truncated && q.paged {
		res.Next = base64.RawURLEncoding.EncodeToString(keys[idx[q.limit-1]])
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) kvGet(w http.ResponseWriter, r *http.Request) {
	if err := s.kvGetErr(w, r); err != nil {
		s.fail(w, r, err)
	}
}

func (s *Server) kvGetErr(w http.ResponseWriter, r *http.Request) error {
	q, err := s.newQuery(r, kstreams.KeyValueStoreKind)
	if err != nil {
		return err
	}
	text := r.PathValue("key")
	key, err := q.serializeKey("key", text)
	if err != nil {
		return err
	}
	parts, err := q.partitions(key)
	if err != nil {
		return err
	}
	for _, ls := range parts {
		kv, ok := ls.Store.(state.KeyValueStore)
		if !ok {
			return errorf(http.StatusInternalServerError, "store %s partition %d is a %T", q.name, ls.Partition, ls.Store)
		}
		v, err := kv.ReadOnly(q.iso).Get(key)
		if err != nil {
			return err
		}
		if v == nil {
			continue
		}
		e := entry{Partition: ls.Partition}
		if err := q.decode(&e, key, v, q.spec.Timestamped); err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, struct {
			Store     string `json:"store"`
			Isolation string `json:"isolation"`
			entry
		}{q.name, q.iso.String(), e})
		return nil
	}
	return errorf(http.StatusNotFound, "key %q not found in store %s (%s)", text, q.name, q.iso)
}

// kvList runs open over every local partition and writes the merged
// results, from the continuation on when the request gives one (after).
func (s *Server) kvList(w http.ResponseWriter, r *http.Request, open func(q *query, kv state.ReadOnlyKeyValueStore) (state.Iterator, error), prepare func(q *query) error) {
	q, err := s.newQuery(r, kstreams.KeyValueStoreKind)
	if err == nil {
		q.paged = true
		err = q.parseAfter()
	}
	if err == nil && prepare != nil {
		err = prepare(q)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	parts, err := q.partitions(nil)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	rs := rows{q: q}
	for _, ls := range parts {
		kv, ok := ls.Store.(state.KeyValueStore)
		if !ok {
			s.fail(w, r, errorf(http.StatusInternalServerError, "store %s partition %d is a %T", q.name, ls.Partition, ls.Store))
			return
		}
		it, err := open(q, kv.ReadOnly(q.iso))
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if err := rs.add(it, ls.Partition, q.spec.Timestamped, nil); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	q.finish(w, rs.es, rs.keys)
}

// parseAfter reads the continuation a truncated listing gave as next.
func (q *query) parseAfter() error {
	p := q.r.URL.Query()
	if !p.Has("after") {
		return nil
	}
	b, err := base64.RawURLEncoding.DecodeString(p.Get("after"))
	if err != nil || len(b) == 0 {
		return errorf(http.StatusBadRequest, "after %q: not a continuation this server gave as next", p.Get("after"))
	}
	q.after = b
	return nil
}

// seekPast returns the lower bound of a scan that starts at from
// (inclusive, nil for none) and resumes past the continuation: the
// smallest key above q.after when that is beyond from.
func (q *query) seekPast(from []byte) []byte {
	if q.after == nil {
		return from
	}
	next := append(bytes.Clone(q.after), 0)
	if from == nil || bytes.Compare(next, from) > 0 {
		return next
	}
	return from
}

func (s *Server) kvRange(w http.ResponseWriter, r *http.Request) {
	var from, to []byte
	s.kvList(w, r, func(q *query, kv state.ReadOnlyKeyValueStore) (state.Iterator, error) {
		lo := q.seekPast(from)
		if to != nil && bytes.Compare(lo, to) > 0 {
			return kv.Range(to, to) // past the end: at most the bound itself, which rows.add skips
		}
		return kv.Range(lo, to)
	}, func(q *query) error {
		var err error
		p := r.URL.Query()
		if p.Has("from") {
			if from, err = q.serializeKey("from", p.Get("from")); err != nil {
				return err
			}
		}
		if p.Has("to") {
			if to, err = q.serializeKey("to", p.Get("to")); err != nil {
				return err
			}
		}
		return nil
	})
}

func (s *Server) kvPrefix(w http.ResponseWriter, r *http.Request) {
	var prefix []byte
	s.kvList(w, r, func(_ *query, kv state.ReadOnlyKeyValueStore) (state.Iterator, error) {
		return kv.PrefixScan(prefix)
	}, func(q *query) error {
		var err error
		prefix, err = q.serializeKey("prefix", r.PathValue("prefix"))
		return err
	})
}

func (s *Server) kvAll(w http.ResponseWriter, r *http.Request) {
	s.kvList(w, r, func(q *query, kv state.ReadOnlyKeyValueStore) (state.Iterator, error) {
		if q.after != nil {
			return kv.Range(q.seekPast(nil), nil)
		}
		return kv.All()
	}, nil)
}

// timeParam reads an epoch-millisecond parameter, def when absent.
func timeParam(r *http.Request, name string, def int64) (int64, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, errorf(http.StatusBadRequest, "%s %q: must be epoch milliseconds", name, v)
	}
	return n, nil
}

func (s *Server) windowFetch(w http.ResponseWriter, r *http.Request) {
	s.windowList(w, r, true)
}

func (s *Server) windowFetchRange(w http.ResponseWriter, r *http.Request) {
	s.windowList(w, r, false)
}

func (s *Server) windowList(w http.ResponseWriter, r *http.Request, single bool) {
	err := func() error {
		q, err := s.newQuery(r, kstreams.WindowStoreKind)
		if err != nil {
			return err
		}
		from, err := timeParam(r, "from", 0)
		if err != nil {
			return err
		}
		to, err := timeParam(r, "to", math.MaxInt64)
		if err != nil {
			return err
		}
		var key, keyFrom, keyTo []byte
		p := r.URL.Query()
		if single {
			if key, err = q.serializeKey("key", r.PathValue("key")); err != nil {
				return err
			}
		} else {
			if p.Has("keyFrom") {
				if keyFrom, err = q.serializeKey("keyFrom", p.Get("keyFrom")); err != nil {
					return err
				}
			}
			if p.Has("keyTo") {
				if keyTo, err = q.serializeKey("keyTo", p.Get("keyTo")); err != nil {
					return err
				}
			}
		}
		parts, err := q.partitions(key)
		if err != nil {
			return err
		}
		rs := rows{q: q}
		for _, ls := range parts {
			ws, ok := ls.Store.(state.WindowStore)
			if !ok {
				return errorf(http.StatusInternalServerError, "store %s partition %d is a %T", q.name, ls.Partition, ls.Store)
			}
			ro := ws.ReadOnly(q.iso)
			var it state.WindowIterator
			switch {
			case single:
				it, err = ro.FetchRange(key, from, to, false)
			case keyFrom == nil && keyTo == nil:
				it, err = ro.FetchAll(from, to, false)
			default:
				it, err = ro.FetchKeys(keyFrom, keyTo, from, to, false)
			}
			if err != nil {
				return err
			}
			bounds := func() (int64, int64) {
				return it.WindowStart(), storeformat.WindowEnd(it.WindowStart(), q.spec.WindowSize)
			}
			if err := rs.add(it, ls.Partition, q.spec.Timestamped, bounds); err != nil {
				return err
			}
		}
		q.finish(w, rs.es, rs.keys)
		return nil
	}()
	if err != nil {
		s.fail(w, r, err)
	}
}

func (s *Server) sessionFind(w http.ResponseWriter, r *http.Request) {
	err := func() error {
		q, err := s.newQuery(r, kstreams.SessionStoreKind)
		if err != nil {
			return err
		}
		earliestEnd, err := timeParam(r, "earliestEnd", 0)
		if err != nil {
			return err
		}
		latestStart, err := timeParam(r, "latestStart", math.MaxInt64)
		if err != nil {
			return err
		}
		key, err := q.serializeKey("key", r.PathValue("key"))
		if err != nil {
			return err
		}
		parts, err := q.partitions(key)
		if err != nil {
			return err
		}
		rs := rows{q: q}
		for _, ls := range parts {
			ss, ok := ls.Store.(state.SessionStore)
			if !ok {
				return errorf(http.StatusInternalServerError, "store %s partition %d is a %T", q.name, ls.Partition, ls.Store)
			}
			it, err := ss.ReadOnly(q.iso).FindSessions(key, earliestEnd, latestStart, false)
			if err != nil {
				return err
			}
			if err := rs.add(it, ls.Partition, false, func() (int64, int64) { return it.Start(), it.End() }); err != nil {
				return err
			}
		}
		q.finish(w, rs.es, rs.keys)
		return nil
	}()
	if err != nil {
		s.fail(w, r, err)
	}
}

// keyMetadata says which partition a key maps to, which instances host it
// (active and standby, from the group's host maps) and whether this
// instance has it open, for routing a query to the instance that does
// (Kafka Streams' queryMetadataForKey).
func (s *Server) keyMetadata(w http.ResponseWriter, r *http.Request) {
	err := func() error {
		name := r.PathValue("store")
		spec, ok := s.cfg.Topology.Store(name)
		if !ok {
			return errorf(http.StatusNotFound, "no store %q in the topology", name)
		}
		q, err := s.newQuery(r, spec.Kind)
		if err != nil {
			return err
		}
		text := r.PathValue("key")
		key, err := q.serializeKey("key", text)
		if err != nil {
			return err
		}
		in := s.ins.get()
		if ms, ok := in.(metadataSource); ok {
			md, err := ms.MetadataForKey(name, key)
			switch {
			case err == nil && (md.Partition >= 0 || md.Available()):
				body := keyMetadataFields(md)
				hosted := false
				for _, ls := range in.LocalStores(name) {
					hosted = hosted || ls.Global || (md.Partition >= 0 && ls.Partition == md.Partition)
				}
				body["store"], body["key"], body["hostedHere"] = name, text, hosted
				body["state"], body["applicationServer"] = in.State().String(), s.cfg.ApplicationServer
				writeJSON(w, http.StatusOK, body)
				return nil
			case err != nil && !errors.Is(err, streams.ErrUnknownStore):
				return q.unavailable(in, fmt.Sprintf("%v; retry", err), nil)
			}
		}
		n, err := q.partitionCount()
		if err != nil {
			return errorf(http.StatusServiceUnavailable, "partition count of store %s unknown: %v", name, err)
		}
		p := kstreams.DefaultPartition(key, n)
		hosted := false
		st := "STARTING"
		if in := s.ins.get(); in != nil {
			st = in.State().String()
			for _, ls := range in.LocalStores(name) {
				hosted = hosted || ls.Partition == p
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{
			"store": name, "key": text, "partition": p, "partitions": n, "hostedHere": hosted,
			"state": st, "applicationServer": s.cfg.ApplicationServer,
		})
		return nil
	}()
	if err != nil {
		s.fail(w, r, err)
	}
}

// instanceMetadata describes this instance and the store partitions it
// hosts, and every instance of the application as the group's last
// assignment gives them (Kafka Streams' metadataForAllStreamsClients).
func (s *Server) instanceMetadata(w http.ResponseWriter, _ *http.Request) {
	in := s.ins.get()
	st := "STARTING"
	stores := map[string]any{}
	for _, sub := range s.cfg.Topology.Subtopologies() {
		for _, spec := range sub.Stores {
			hosted := []int32{}
			if in != nil {
				for _, ls := range in.LocalStores(spec.Name) {
					hosted = append(hosted, ls.Partition)
				}
			}
			slices.Sort(hosted)
			stores[spec.Name] = map[string]any{"kind": spec.Kind.String(), "timestamped": spec.Timestamped,
				"subtopology": sub.ID, "hostedPartitions": hosted}
		}
	}
	// A global store is one store over every partition of its topic, on
	// every instance.
	for _, g := range s.cfg.Topology.GlobalStores() {
		hosted := in != nil && len(in.LocalStores(g.Store.Name)) > 0
		stores[g.Store.Name] = map[string]any{"kind": g.Store.Kind.String(), "timestamped": g.Store.Timestamped,
			"subtopology": g.ID, "global": true, "hosted": hosted}
	}
	pid := ""
	if in != nil {
		st = in.State().String()
	}
	if s.cfg.ProcessID != nil {
		pid = s.cfg.ProcessID()
	}
	body := map[string]any{"state": st, "processId": pid, "applicationServer": s.cfg.ApplicationServer, "stores": stores,
		"instances": []instanceJSON{}}
	if ms, ok := in.(metadataSource); ok {
		all := ms.AllMetadata()
		list := make([]instanceJSON, 0, len(all))
		for _, md := range all {
			list = append(list, instanceJSON{Host: md.Host.String(), Local: s.self != nil && md.Host == *s.self,
				Stores: md.StateStoreNames, Partitions: partitionsJSON(md.TopicPartitions),
				StandbyStores: md.StandbyStateStoreNames, StandbyPartitions: partitionsJSON(md.StandbyTopicPartitions)})
		}
		body["instances"] = list
	}
	writeJSON(w, http.StatusOK, body)
}

// instanceJSON is one instance of the application in /metadata: its
// application.server, whether it is this one, and the stores and source
// partitions of its active and standby tasks.
type instanceJSON struct {
	Host              string          `json:"host"`
	Local             bool            `json:"local"`
	Stores            []string        `json:"stores"`
	Partitions        []partitionJSON `json:"partitions"`
	StandbyStores     []string        `json:"standbyStores"`
	StandbyPartitions []partitionJSON `json:"standbyPartitions"`
}

type partitionJSON struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
}

func partitionsJSON(tps []state.TopicPartition) []partitionJSON {
	out := make([]partitionJSON, len(tps))
	for i, tp := range tps {
		out[i] = partitionJSON{tp.Topic, tp.Partition}
	}
	return out
}

// versionEntry is one version of a versioned store's key: valid from
// timestamp until validTo (exclusive), absent for the latest version.
type versionEntry struct {
	Key       any    `json:"key"`
	Value     any    `json:"value"`
	Timestamp int64  `json:"timestamp"`
	ValidTo   *int64 `json:"validTo,omitempty"`
	Partition int32  `json:"partition"`
}

// versions answers GET /stores/{store}/versions/{key}: the key's latest
// version, or with asOf the version valid then (Kafka's VersionedKeyQuery),
// or with from and/or to the versions valid at some time of that inclusive
// range, newest first unless order=asc (MultiVersionedKeyQuery).
func (s *Server) versions(w http.ResponseWriter, r *http.Request) {
	if err := s.versionsErr(w, r); err != nil {
		s.fail(w, r, err)
	}
}

func (s *Server) versionsErr(w http.ResponseWriter, r *http.Request) error {
	q, err := s.newQuery(r, kstreams.VersionedStoreKind)
	if err != nil {
		return err
	}
	p := r.URL.Query()
	ranged := p.Has("from") || p.Has("to") || p.Has("order")
	if p.Has("asOf") && ranged {
		return errorf(http.StatusBadRequest, "asOf asks for one version, from/to/order for a range: give one or the other")
	}
	asOf, err := timeParam(r, "asOf", math.MaxInt64)
	if err != nil {
		return err
	}
	from, err := timeParam(r, "from", math.MinInt64)
	if err != nil {
		return err
	}
	to, err := timeParam(r, "to", math.MaxInt64)
	if err != nil {
		return err
	}
	if from > to {
		return errorf(http.StatusBadRequest, "from %d is after to %d", from, to)
	}
	ascending := false
	switch o := p.Get("order"); o {
	case "", "desc":
	case "asc":
		ascending = true
	default:
		return errorf(http.StatusBadRequest, "order %q: must be asc or desc", o)
	}
	text := r.PathValue("key")
	key, err := q.serializeKey("key", text)
	if err != nil {
		return err
	}
	parts, err := q.partitions(key)
	if err != nil {
		return err
	}
	found := []versionEntry{}
	for _, ls := range parts {
		vs, ok := ls.Store.(state.VersionedKeyValueStore)
		if !ok {
			return errorf(http.StatusInternalServerError, "store %s partition %d is a %T", q.name, ls.Partition, ls.Store)
		}
		ro := vs.ReadOnly(q.iso)
		var recs []state.VersionedRecord
		switch {
		case ranged:
			if recs, err = ro.Versions(key, from, to, ascending); err != nil {
				return err
			}
		default:
			var rec *state.VersionedRecord
			if p.Has("asOf") {
				rec, err = ro.GetAsOf(key, asOf)
			} else {
				rec, err = ro.Get(key)
			}
			if err != nil {
				return err
			}
			if rec != nil {
				recs = append(recs, *rec)
			}
		}
		for _, rec := range recs {
			e := versionEntry{Timestamp: rec.Timestamp, Partition: ls.Partition}
			if rec.HasValidTo {
				e.ValidTo = &rec.ValidTo
			}
			var plain entry
			if err := q.decode(&plain, key, rec.Value, false); err != nil {
				return err
			}
			e.Key, e.Value = plain.Key, plain.Value
			found = append(found, e)
		}
	}
	if !ranged {
		if len(found) == 0 {
			if p.Has("asOf") {
				return errorf(http.StatusNotFound, "key %q has no version valid at %d in store %s (%s)", text, asOf, q.name, q.iso)
			}
			return errorf(http.StatusNotFound, "key %q not found in store %s (%s)", text, q.name, q.iso)
		}
		writeJSON(w, http.StatusOK, struct {
			Store     string `json:"store"`
			Isolation string `json:"isolation"`
			versionEntry
		}{q.name, q.iso.String(), found[0]})
		return nil
	}
	out := found[:min(len(found), q.limit)]
	writeJSON(w, http.StatusOK, struct {
		Store     string         `json:"store"`
		Isolation string         `json:"isolation"`
		Results   []versionEntry `json:"results"`
		Truncated bool           `json:"truncated"`
	}{q.name, q.iso.String(), out, len(found) > q.limit})
	return nil
}
