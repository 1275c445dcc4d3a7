package compat

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// readTSV returns the tab-separated fields of each line of a testdata file.
func readTSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rows = append(rows, strings.Split(sc.Text(), "\t"))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestClientKeysMatchKafkaClients compares the client-key table with what
// the Kafka 4.4 Java clients' ConfigDefs say (testdata/clients/configdef.tsv,
// printed by ClientConfigFacts.java): every key's type and validator, and
// every PASSWORD key treated as a secret.
func TestClientKeysMatchKafkaClients(t *testing.T) {
	seen := map[string]bool{}
	for _, row := range readTSV(t, "testdata/clients/configdef.tsv") {
		client, name, typ, validator := row[0], row[1], row[2], row[3]
		seen[name] = true
		got, ok := clientTypes[name]
		switch {
		case typ == "STRING" && ok:
			t.Errorf("%s %s: STRING in Kafka, %s here", client, name, got)
		case typ != "STRING" && got.String() != typ:
			t.Errorf("%s %s: type %s in Kafka, %v here", client, name, typ, got)
		}
		var mine string
		if v := clientValidators[name]; v != nil {
			mine = v.String()
		}
		if mine != validator {
			t.Errorf("%s %s: validator %q in Kafka, %q here", client, name, validator, mine)
		}
		if typ == "PASSWORD" && !IsSecretKey(name) {
			t.Errorf("%s %s: a PASSWORD key that is not treated as a secret", client, name)
		}
	}
	for name := range clientTypes {
		if !seen[name] {
			t.Errorf("clientTypes has %s, which no Kafka 4.4 client defines", name)
		}
	}
	for name := range clientValidators {
		if !seen[name] {
			t.Errorf("clientValidators has %s, which no Kafka 4.4 client defines", name)
		}
	}
}

// TestClientValuesCheckedAsKafkaClientsCheckThem loads each value of
// testdata/clients/validation.tsv under its client's prefix and expects the
// message the Kafka 4.4 Java client gives for it (printed by
// ClientConfigFacts.java), or no such error where the client accepts it.
// Keys that Kafka Streams drops with a warning before any client sees them
// (transactional.id, consumer group.protocol) are not checked, as there.
func TestClientValuesCheckedAsKafkaClientsCheckThem(t *testing.T) {
	dropped := map[string]bool{"producer.transactional.id": true, "consumer.group.protocol": true}
	for _, row := range readTSV(t, "testdata/clients/validation.tsv") {
		client, name, value, want := row[0], row[1], row[2], row[3]
		key := client + "." + name
		if dropped[key] {
			want = "ok"
		}
		_, diags := load(t, base+key+"="+value+"\n")
		var msgs []string
		for _, d := range diags.Errors() {
			if d.Key == key {
				msgs = append(msgs, d.Message)
			}
		}
		if want == "ok" {
			for _, m := range msgs {
				if strings.HasPrefix(m, "Invalid value") {
					t.Errorf("%s=%q: %s; the Kafka client accepts it", key, value, m)
				}
			}
			continue
		}
		if len(msgs) != 1 || msgs[0] != want {
			t.Errorf("%s=%q:\n got %q\nwant %q", key, value, msgs, want)
		}
	}
}

// TestProducerIdempotenceAsKafkaProducer loads each set of producer settings
// of testdata/clients/producer-sets.tsv and expects the Kafka 4.4 producer's
// verdict (printed by ClientConfigFacts.java): its message, or whether it is
// idempotent, which the franz-go producer must then be (no kgo.DisableIdempotentWrite). Under exactly_once_v2,
// where Kafka Streams sets enable.idempotence=true, the sets that set it
// explicitly must give the same verdict without it.
func TestProducerIdempotenceAsKafkaProducer(t *testing.T) {
	for _, row := range readTSV(t, "testdata/clients/producer-sets.tsv") {
		set, want := row[0], row[1]
		check := func(guarantee string, kvs []string) {
			t.Helper()
			src := base + "processing.guarantee=" + guarantee + "\n"
			for _, kv := range kvs {
				src += "producer." + kv + "\n"
			}
			c, diags := load(t, src)
			var errs []string
			for _, d := range diags.Errors() {
				errs = append(errs, d.Message)
			}
			if !strings.HasPrefix(want, "ok ") {
				if len(errs) != 1 || errs[0] != want {
					t.Errorf("%s under %s: errors %q, want %q", set, guarantee, errs, want)
				}
				return
			}
			if len(errs) > 0 {
				t.Errorf("%s under %s: errors %q; the Kafka producer accepts it", set, guarantee, errs)
				return
			}
			_, off := option(c, Producer, 1, "kgo.DisableIdempotentWrite")
			got := "ok idempotence=" + strconv.FormatBool(!off)
			if got != want {
				t.Errorf("%s under %s: franz-go %s, want %s", set, guarantee, got, want)
			}
		}
		kvs := strings.Split(set, ";")
		check("at_least_once", kvs)
		if rest, ok := strings.CutPrefix(set, "enable.idempotence=true;"); ok && !strings.Contains(rest, "max.in.flight") {
			check("exactly_once_v2", strings.Split(rest, ";"))
		}
	}
}
