package compat

import (
	"testing"

	"github.com/stoatflow/stoatflow/properties"
)

// TestAppConfigsGivesPropertiesAndEffectiveStreamsValues pins what
// Kafka's ProcessorContext.appConfigs() holds: the originals (an
// application's own key included) overlaid with every StreamsConfig key's
// effective value, defaults included, null ones absent.
func TestAppConfigsGivesPropertiesAndEffectiveStreamsValues(t *testing.T) {
	p, err := properties.Parse("app.properties", []byte("application.id=orders\n"+
		"bootstrap.servers=a:9092,b:9092\n"+
		"commit.interval.ms=250\n"+
		"orders.ttl.ms=60000\n"))
	if err != nil {
		t.Fatal(err)
	}
	c, diags := Load(p)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got := c.AppConfigs()
	for k, want := range map[string]string{
		"application.id":        "orders",
		"bootstrap.servers":     "a:9092,b:9092",
		"commit.interval.ms":    "250",
		"orders.ttl.ms":         "60000",
		"num.stream.threads":    "1",
		"processing.guarantee":  "at_least_once",
		"topology.optimization": "none",
	} {
		if got[k] != want {
			t.Errorf("AppConfigs()[%q] = %q, want %q", k, got[k], want)
		}
	}
	if v, ok := got["application.server"]; ok && v != "" {
		t.Errorf("application.server = %q, want it empty or absent", v)
	}
	got["application.id"] = "changed"
	if c.AppConfigs()["application.id"] != "orders" {
		t.Error("AppConfigs returned the Config's own map, not a copy")
	}
}
