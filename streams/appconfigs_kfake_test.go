package streams_test

import (
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
)

// TestKfakeProcessorReadsTheApplicationsConfig: a processor reads the
// application's own key, a Kafka Streams key at its default and one at its
// given value through AppConfigs, and the own key again through
// AppConfigsWithPrefix, as Kafka's appConfigs() and appConfigsWithPrefix()
// give them.
func TestKfakeProcessorReadsTheApplicationsConfig(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 1, "in", "out")
	topo := kstreams.NewTopology()
	reader := kstreams.ProcessorFunc(func(ctx kstreams.ProcessorContext, r kstreams.Record) error {
		all := ctx.AppConfigs()
		r.Value = all["orders.ttl.ms"] + " " + ctx.AppConfigsWithPrefix("orders.")["ttl.ms"] + " " +
			all["num.stream.threads"] + " " + all["commit.interval.ms"] + " " + all["application.id"]
		return ctx.Forward(r)
	})
	addInProcessorOut(t, topo, "reader", reader)
	startApp(t, topo, appConfig(t, addr, "appconfigs", t.TempDir(), "orders.ttl.ms=60000"))
	testkafka.Produce(t, addr, testkafka.Record{Topic: "in", Partition: 0, Key: []byte("k"), Value: []byte("v")})
	got, err := testkafka.ReadCommitted(addr, "out", 1, 30*time.Second, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if want := "60000 60000 1 100 appconfigs"; len(got) != 1 || string(got[0].Value) != want {
		t.Fatalf("output %v, want one record %q", got, want)
	}
}
