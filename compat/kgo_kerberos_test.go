package compat

import (
	"encoding/binary"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jcmturner/gokrb5/v8/iana/etypeID"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/jcmturner/gokrb5/v8/messages"
)

// TestGSSAPIKeytabLoginReachesTheKDC maps a Krb5LoginModule keytab login and
// checks that its first step, the AS-REQ, goes to the KDC of krb5.conf for
// the JAAS principal. (A full GSSAPI handshake needs a KDC and a broker
// that speaks GSSAPI, which kfake does not.)
func TestGSSAPIKeytabLoginReachesTheKDC(t *testing.T) {
	dir := t.TempDir()
	kt := keytab.New()
	if err := kt.AddEntry("stream-app", "EXAMPLE.TEST", "pw", time.Now(), 1, etypeID.AES256_CTS_HMAC_SHA1_96); err != nil {
		t.Fatal(err)
	}
	b, err := kt.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	ktPath := filepath.Join(dir, "client.keytab")
	os.WriteFile(ktPath, b, 0o600)
	kdc, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer kdc.Close()
	got := make(chan messages.ASReq, 1)
	go func() {
		conn, err := kdc.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		var n uint32
		if binary.Read(conn, binary.BigEndian, &n) != nil {
			return
		}
		msg := make([]byte, n)
		if _, err := io.ReadFull(conn, msg); err != nil {
			return
		}
		var req messages.ASReq
		if req.Unmarshal(msg) == nil {
			got <- req
		}
	}()
	conf := filepath.Join(dir, "krb5.conf")
	os.WriteFile(conf, []byte("[libdefaults]\n default_realm = EXAMPLE.TEST\n udp_preference_limit = 1\n"+
		"[realms]\n EXAMPLE.TEST = {\n  kdc = "+kdc.Addr().String()+"\n }\n"), 0o644)
	t.Setenv("KRB5_CONFIG", conf)

	o := saslOption(t, "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=GSSAPI\nsasl.kerberos.service.name=kafka\n"+
		"sasl.jaas.config=com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true storeKey=true keyTab=\""+ktPath+"\" principal=\"stream-app@EXAMPLE.TEST\";\n")
	if want := "GSSAPI service kafka, principal stream-app@EXAMPLE.TEST, keytab " + ktPath + ", krb5.conf from $KRB5_CONFIG or /etc/krb5.conf"; o.Value != want {
		t.Errorf("printed %q, want %q", o.Value, want)
	}
	if _, err := o.build(); err != nil {
		t.Fatal(err)
	}
	spec := &krb5Spec{service: "kafka", principal: "stream-app@EXAMPLE.TEST", keytab: ktPath}
	cl, err := spec.client()
	if err != nil {
		t.Fatal(err)
	}
	go cl.Login() // fails once the fake KDC hangs up
	select {
	case req := <-got:
		if name := req.ReqBody.CName.PrincipalNameString(); name != "stream-app" || req.ReqBody.Realm != "EXAMPLE.TEST" {
			t.Errorf("AS-REQ for %s@%s", name, req.ReqBody.Realm)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no AS-REQ reached the KDC")
	}

	spec.keytab = filepath.Join(dir, "missing.keytab")
	if _, err := spec.build(); err == nil || !strings.Contains(err.Error(), "missing.keytab") {
		t.Errorf("missing keytab: %v", err)
	}
	t.Setenv("KRB5_CONFIG", filepath.Join(dir, "none.conf"))
	if _, err := spec.build(); err == nil || !strings.Contains(err.Error(), "KRB5_CONFIG") {
		t.Errorf("missing krb5.conf: %v", err)
	}
}
