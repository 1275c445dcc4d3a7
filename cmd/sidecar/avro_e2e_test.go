package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/sidecartest"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/internal/testregistry"
	"github.com/stoatflow/stoatflow/kstreams/serde/registry"
)

// TestSidecarRunsSpecificAvroApplicationUnchanged runs the built binary on a
// JVM application's .properties that names SpecificAvroSerde with Confluent's
// registry keys, basic authentication included, against the real broker and
// registry. It counts the Avro input and never prints the user info.
func TestSidecarRunsSpecificAvroApplicationUnchanged(t *testing.T) {
	bootstrap := testkafka.Bootstrap(t)
	regURL := testregistry.URL(t)
	bin := sidecartest.Build(t, ".")
	in, out := testkafka.Topic(t, "in"), testkafka.Topic(t, "out")
	testkafka.CreateTopics(t, bootstrap, 1, in, out)

	const schema = `{"type":"record","name":"Click","namespace":"com.acme.clicks","fields":[{"name":"user","type":"string"},{"name":"page","type":"string"}]}`
	type click struct {
		User string `avro:"user"`
		Page string `avro:"page"`
	}
	w, err := registry.NewAvro[click](testregistry.Client(t), schema, registry.DefaultSerdeConfig(false))
	if err != nil {
		t.Fatal(err)
	}
	users := []string{"ann", "bob", "ann", "cid", "ann", "bob"}
	var recs []testkafka.Record
	for i, u := range users {
		v, err := w.Serialize(in, click{User: u, Page: fmt.Sprint("/p", i)})
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, testkafka.Record{Topic: in, Partition: 0, Key: []byte(fmt.Sprint("k", i)), Value: v})
	}
	testkafka.Produce(t, bootstrap, recs...)

	dir := t.TempDir()
	listen := sidecartest.FreeAddr(t)
	props := filepath.Join(dir, "streams.properties")
	const secret = "clicks-svc:Avr0-Regi5try-S3cret"
	if err := os.WriteFile(props, []byte(strings.Join([]string{
		"application.id=" + testkafka.Topic(t, "app"),
		"bootstrap.servers=" + bootstrap,
		"processing.guarantee=exactly_once_v2",
		"commit.interval.ms=500",
		"default.key.serde=org.apache.kafka.common.serialization.Serdes$StringSerde",
		"default.value.serde=io.confluent.kafka.streams.serdes.avro.SpecificAvroSerde",
		"schema.registry.url=" + regURL,
		"basic.auth.credentials.source=USER_INFO",
		"basic.auth.user.info=" + secret,
		"auto.register.schemas=true",
		"statestore.cache.max.bytes=0",
		"replication.factor=1",
		"state.dir=" + filepath.Join(dir, "state"),
		"stoatflow.topology=avrocount",
		"stoatflow.http.listen=" + listen,
	}, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := sidecartest.Start(t, bin, "run", "--config", props, "--arg", "input="+in, "--arg", "output="+out)
	p.WaitReady(t, "http://"+listen)
	got, err := testkafka.ReadCommitted(bootstrap, out, len(users), time.Minute, time.Second)
	if err != nil {
		t.Fatalf("output: %v\n%s", err, sidecartest.Tail(p.Output(), 30))
	}
	last := map[string]int64{}
	for _, r := range got {
		last[string(r.Key)] = int64(binary.BigEndian.Uint64(r.Value))
	}
	var s []string
	for k, v := range last {
		s = append(s, fmt.Sprintf("%s=%d", k, v))
	}
	sort.Strings(s)
	if strings.Join(s, " ") != "ann=3 bob=2 cid=1" {
		t.Errorf("counts %v, want [ann=3 bob=2 cid=1]", s)
	}
	p.Stop(t)
	if strings.Contains(p.Output(), "Avr0-Regi5try-S3cret") {
		t.Error("basic.auth.user.info appears in the sidecar's output")
	}
}
