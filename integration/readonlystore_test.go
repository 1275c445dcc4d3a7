package integration

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/readonlystore"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// TestReadOnlyStoreMatchesKafkaStreams: orders enriched from a read-only
// store that a processor keeps from the prices topic, on both engines.
// Prices change, and one is deleted, between orders of the same key; each
// key's prices and orders share a partition, so a task takes them in
// timestamp order (max.task.idle.ms in the example's file) and every
// order sees the price of its time. Compared: the output per partition (as
// multisets: the sink's partitions are written by both tasks), that
// neither engine created an internal topic (the prices topic is the
// store's changelog), and describe().
func TestReadOnlyStoreMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	var prices, orders []testkafka.Record
	for step := range 6 {
		for k := range 4 {
			key := []byte(fmt.Sprintf("item%d", k))
			ts := epochBase + int64(step)*10_000 + int64(k)*100
			var price []byte
			if step != 3 || k != 2 {
				price = []byte(fmt.Sprintf("%d.%02d", k+1, step))
			} // item2's price is deleted at step 3, and set again at step 4
			if step%2 == 0 || k%2 == 0 || price == nil {
				prices = append(prices, testkafka.Record{Partition: int32(k % 2), Key: key, Value: price, Timestamp: time.UnixMilli(ts)})
			}
			orders = append(orders, testkafka.Record{Partition: int32(k % 2), Key: key, Value: []byte(fmt.Sprintf("order%d", step)),
				Timestamp: time.UnixMilli(ts + 5_000)})
		}
	}
	// An order of a key that never has a price.
	orders = append(orders, testkafka.Record{Partition: 1, Key: []byte("item9"), Value: []byte("order9"), Timestamp: time.UnixMilli(epochBase + 70_000)})
	// Each order carries the price its key had at the order's time.
	want := map[string]int{}
	for _, o := range orders {
		price := "unpriced"
		for _, p := range prices {
			if string(p.Key) == string(o.Key) && p.Timestamp.Before(o.Timestamp) {
				price = "unpriced"
				if p.Value != nil {
					price = string(p.Value)
				}
			}
		}
		want[string(o.Key)+" "+string(o.Value)+"@"+price]++
	}
	got := runDifferential(t, diffCase{
		app: readonlystore.Name, props: filepath.Join(root, "examples", "readonlystore", "streams.properties"),
		input: orders, inputs: map[string][]testkafka.Record{"prices": prices},
		outputs: len(orders), unordered: true, noInternalTopics: true,
	})
	for _, r := range got {
		want[string(r.Key)+" "+string(r.Value)]--
	}
	for rec, n := range want {
		if n != 0 {
			t.Errorf("output %q: %+d against the prices of the orders' times", rec, n)
		}
	}
}
