package compat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckFilesNamesTheKeyAndLine: every file a key names for the clients
// or the HTTP server is read by CheckFiles, and one that cannot be read is
// an error on that key's line that says what to do, the cause last; Load
// alone reads none of them.
func TestCheckFilesNamesTheKeyAndLine(t *testing.T) {
	dir := t.TempDir()
	missing := func(name string) string { return filepath.Join(dir, name) }
	notPEM := filepath.Join(dir, "trust.pem")
	os.WriteFile(notPEM, []byte("not a certificate\n"), 0o644)
	c, ds := load(t, "application.id=a\nbootstrap.servers=b:9092\n"+
		"security.protocol=SASL_SSL\n"+
		"ssl.truststore.location="+missing("trust.jks")+"\n"+
		"producer.ssl.truststore.location="+notPEM+"\n"+
		"producer.ssl.truststore.type=PEM\n"+
		"ssl.keystore.location="+missing("key.p12")+"\n"+
		"ssl.keystore.type=PKCS12\n"+
		"sasl.mechanism=GSSAPI\nsasl.kerberos.service.name=kafka\n"+
		"sasl.jaas.config=com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true keyTab=\""+missing("client.keytab")+"\" principal=\"app@EXAMPLE.TEST\";\n"+
		"stoatflow.http.tls.cert-file="+missing("http.crt")+"\n"+
		"stoatflow.http.tls.key-file="+missing("http.key")+"\n")
	if ds.HasErrors() {
		t.Fatalf("Load refused the configuration:\n%v", ds)
	}
	want := map[string]string{
		"t.properties:4: error: ssl.truststore.location: cannot read the JKS trust store " + missing("trust.jks"):              "no such file or directory",
		"t.properties:5: error: producer.ssl.truststore.location: cannot read the PEM trust store " + notPEM:                   "; give the path of a PEM trust store the process can read, with its password in producer.ssl.truststore.password (",
		"t.properties:7: error: ssl.keystore.location: cannot read the PKCS12 key store " + missing("key.p12"):                 "ssl.keystore.password and ssl.key.password",
		"t.properties:11: error: sasl.jaas.config: cannot read the Kerberos keytab " + missing("client.keytab"):                `give keyTab="..." in sasl.jaas.config`,
		"t.properties:12: error: stoatflow.http.tls.cert-file: cannot read the HTTP server certificate " + missing("http.crt"): "no such file or directory)",
		"t.properties:13: error: stoatflow.http.tls.key-file: cannot read the HTTP server key " + missing("http.key"):          "no such file or directory)",
	}
	got := c.CheckFiles()
	if len(got) != len(want) {
		t.Errorf("CheckFiles found %d, want %d:\n%v", len(got), len(want), got)
	}
	for _, d := range got {
		s := d.String()
		found := false
		for prefix, part := range want {
			if strings.HasPrefix(s, prefix+"; ") && strings.Contains(s, part) {
				found = true
			}
		}
		if !found {
			t.Errorf("unexpected finding %q", s)
		}
	}
	if p := c.Pos("sasl.mechanism"); p.String() != "t.properties:9" {
		t.Errorf("Pos(sasl.mechanism) = %v", p)
	}
}
