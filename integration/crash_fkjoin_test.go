package integration

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stoatflow/stoatflow/examples/fkjoin"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// The input of the foreign-key join's crash workload, and the model its
// output is checked with.
//
// A Kafka Streams 4.4 foreign-key join is eventually consistent only for
// some histories. An order updated without changing its foreign key, or
// inserted (after a delete, or after a null foreign key), sends a
// subscription that is answered only if the customer exists when it
// arrives; when the customer was deleted meanwhile, the customer's delete
// answered the order's previous value (its response is dropped by the
// hash) and the new subscription is not answered at all, so the order's
// result stays a stale join until its next update. The in-process run
// answers every subscription at once and never hits that window; a run
// whose tasks work through a backlog after a restart does. The input
// therefore avoids the histories with that window: every update of a live
// order changes its foreign key (the subscription then answers a missing
// customer with a tombstone), and an order's delete or null foreign key
// is its last record. Under those rules the last result of every order is
// the in-process run's, whatever the timing.

// fkJoinGeneration is how many input records make one generation of keys.
const fkJoinGeneration = 240

// fkJoinPick spreads record i over n choices.
func fkJoinPick(i, n int) int { return int(uint32(i)*2654435761>>16) % n }

type fkJoinRecord struct {
	key, value string
	tombstone  bool
}

// fkJoinInputs holds the records generated so far, a generation at a time.
var fkJoinInputs struct {
	sync.Mutex
	recs []fkJoinRecord
}

// fkJoinInput is record i of the foreign-key join's input: four in ten
// update an order, the others a customer. The orders of generation g (240
// records) are "order-g-0" to "order-g-23" and name customers of blocks g
// and g-1, "cust-b-0" to "cust-b-3"; block b's customers are updated (and
// now and then deleted) in generations b to b+2. An order is updated
// about every 60 records, 300 ms as the crash run feeds them, long enough
// for many of its values to see their subscriptions answered (a round
// trip of two commits) and the updates of their customer joined. So every order's result
// stops changing three generations after the order appeared: its last
// result is computed while the run goes on, between kills. Every update of
// an order names another customer than its previous one, and an order's
// last record deletes it or gives it a null foreign key ("nofk-i", no '|')
// for one order in three. Every value holds its record's index, so each
// order and customer value occurs once.
func fkJoinInput(i int) (key, value string, tombstone bool) {
	fkJoinInputs.Lock()
	defer fkJoinInputs.Unlock()
	for len(fkJoinInputs.recs) <= i {
		fkJoinInputs.recs = append(fkJoinInputs.recs, fkJoinGenerate(len(fkJoinInputs.recs)/fkJoinGeneration)...)
	}
	r := fkJoinInputs.recs[i]
	return r.key, r.value, r.tombstone
}

// fkJoinGenerate returns the records of generation g.
func fkJoinGenerate(g int) []fkJoinRecord {
	base := g * fkJoinGeneration
	out := make([]fkJoinRecord, fkJoinGeneration)
	updates := map[string]int{}
	last := map[string]int{}
	for n := range out {
		i := base + n
		if (i*7+i/3)%10 < 4 {
			key := fmt.Sprintf("order-%d-%d", g, fkJoinPick(i, 24))
			u := updates[key]
			updates[key]++
			// Three is prime to both cycles, so the customer always changes.
			c := u * 3 % 8
			if g == 0 {
				c = u * 3 % 4
			}
			out[n] = fkJoinRecord{key: key, value: fmt.Sprintf("cust-%d-%d|%d", g-c/4, c%4, i)}
			last[key] = n
			continue
		}
		b := max(g-i%3, 0)
		key := fmt.Sprintf("cust-%d-%d", b, fkJoinPick(i*5+1, 4))
		if i%11 == 0 {
			out[n] = fkJoinRecord{key: key, tombstone: true}
		} else {
			out[n] = fkJoinRecord{key: key, value: "R" + strconv.Itoa(i)}
		}
	}
	for _, n := range last {
		switch (base + n) % 6 {
		case 0:
			out[n] = fkJoinRecord{key: out[n].key, tombstone: true}
		case 1:
			out[n].value = "nofk-" + strconv.Itoa(base+n)
		}
	}
	return out
}

// fkJoinRank accepts a result of the foreign-key join, order+"+"+customer,
// for an order key when the order is input record i's value for that key
// and the customer record j's value for the order's foreign key, and ranks
// it (i, j). A key's results can only come in that order: those of one
// order value before those of a later one (a response for an order value
// that has since changed is dropped, by the hash it carries), and for one
// order value those of its customer's updates in their order (they come
// from the one task of the customer's partition, through one partition of
// the response topic). As every value occurs once in the input, a result
// that comes twice breaks the order.
func fkJoinRank(key, value string) (int64, error) {
	order, customer, ok := strings.Cut(value, "+")
	if !ok {
		return 0, fmt.Errorf("no '+' between order and customer")
	}
	fk, payload, ok := strings.Cut(order, "|")
	i, err := strconv.Atoi(payload)
	if !ok || err != nil || i < 0 {
		return 0, fmt.Errorf("order value %q holds no record index", order)
	}
	if k, v, del := fkJoinInput(i); k != key || v != order || del {
		return 0, fmt.Errorf("input record %d is %s=%q (tombstone %v), not %s=%q", i, k, v, del, key, order)
	}
	j, err := strconv.Atoi(strings.TrimPrefix(customer, "R"))
	if !strings.HasPrefix(customer, "R") || err != nil || j < 0 {
		return 0, fmt.Errorf("customer value %q holds no record index", customer)
	}
	if k, v, del := fkJoinInput(j); k != fk || v != customer || del {
		return 0, fmt.Errorf("input record %d is %s=%q (tombstone %v), not %s=%q", j, k, v, del, fk, customer)
	}
	return int64(i)<<32 | int64(j), nil
}

// The input keeps the rules that make the join's last results independent
// of timing, and the model fits the in-process run: every result accepted,
// each key's results in rank order. The input exercises what the workload
// claims: customer deletes, orders deleted or losing their foreign key,
// and orders whose last result comes long before the input ends.
func TestFKJoinCrashModelFitsInProcessRun(t *testing.T) {
	t.Parallel()
	const n = 8 * fkJoinGeneration
	prevFK, ended := map[string]string{}, map[string]bool{}
	lastIn := map[string]int{}
	topo, err := fkjoin.BuildCrash(map[string]string{"input": "in", "output": "out"})
	if err != nil {
		t.Fatal(err)
	}
	d, err := kstreamstest.New(topo, kstreamstest.Config{ApplicationID: "fkjoin-model", Partitions: 2,
		DefaultKeySerde: serde.Erase[string](serde.String{}), DefaultValueSerde: serde.Erase[string](serde.String{})})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for i := 0; i < n; i++ {
		k, v, del := fkJoinInput(i)
		if strings.HasPrefix(k, "order-") {
			fk, ok := fkjoin.ForeignKey(v)
			switch {
			case ended[k]:
				t.Fatalf("record %d updates %s after its delete or null foreign key", i, k)
			case del || !ok:
				ended[k] = true
			case fk == prevFK[k]:
				t.Fatalf("record %d updates %s keeping its foreign key %s", i, k, fk)
			}
			prevFK[k] = fk
		}
		value := []byte(v)
		if del {
			value = nil
		}
		if err := d.Pipe("in", []byte(k), value, epochBase+int64(i)); err != nil {
			t.Fatal(err)
		}
		lastIn[k] = i
	}
	prev, last := map[string]int64{}, map[string]string{}
	results, tombstones, early, valued := 0, 0, 0, 0
	for _, rec := range d.Records("out") {
		k := string(rec.Key)
		if rec.Value == nil {
			tombstones++
			last[k] = "null"
			continue
		}
		results++
		v := string(rec.Value)
		last[k] = v
		rank, err := fkJoinRank(k, v)
		if err != nil {
			t.Fatalf("in-process result %s=%q rejected: %v", k, v, err)
		}
		if p, ok := prev[k]; ok && rank <= p {
			t.Fatalf("in-process result %s=%q ranked %d, not above the previous %d", k, v, rank, p)
		}
		prev[k] = rank
	}
	for k, v := range last {
		if lastIn[k] < n-4*fkJoinGeneration {
			early++
		}
		if v != "null" {
			valued++
		}
	}
	if results < n/4 || tombstones < n/20 || early < len(last)/2 || valued < len(last)/5 || valued > len(last)*4/5 {
		t.Fatalf("%d results, %d tombstones, %d keys of %d settled early, %d ending with a value: the input exercises too little",
			results, tombstones, early, len(last), valued)
	}
	t.Logf("%d input records: %d results, %d tombstones; %d keys, %d settled three generations before the end, %d ending with a value",
		n, results, tombstones, len(last), early, valued)

	// What the model must refuse: a value the input never held for that
	// key, a customer that is not the order's foreign key, and text that
	// is no result at all.
	for _, bad := range [][2]string{
		{"order-0-1", "cust-0-0|5+R3"},
		{"order-9-9", "cust-0-0|1+R3"},
		{"order-0-0", "nofk-0+R3"},
		{"order-0-0", "no result"},
	} {
		if _, err := fkJoinRank(bad[0], bad[1]); err == nil {
			t.Errorf("fkJoinRank(%s, %q) accepted", bad[0], bad[1])
		}
	}
	for i := 0; i < n; i++ {
		k, v, del := fkJoinInput(i)
		fk, ok := fkjoin.ForeignKey(v)
		if del || !ok || !strings.HasPrefix(k, "order-") {
			continue
		}
		for j := 0; j < n; j++ {
			ck, cv, cdel := fkJoinInput(j)
			if cdel || !strings.HasPrefix(ck, "cust-") {
				continue
			}
			if _, err := fkJoinRank(k, v+"+"+cv); (ck == fk) != (err == nil) {
				t.Fatalf("fkJoinRank(%s, %q) = %v; the order's customer is %s", k, v+"+"+cv, err, fk)
			}
		}
		break
	}
}
