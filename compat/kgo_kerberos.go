package compat

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/credentials"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/kerberos"
)

// krb5Spec is a GSSAPI login as Krb5LoginModule's options describe it: a
// keytab and principal, or a ticket cache (kinit's).
type krb5Spec struct {
	service   string
	principal string // user[/host]@REALM; "" with a ticket cache
	keytab    string
	ccache    string // "" with a keytab: $KRB5CCNAME or /tmp/krb5cc_<uid>
}

// krb5ConfPath is where krb5.conf is read: $KRB5_CONFIG, else /etc/krb5.conf
// (the JVM's java.security.krb5.conf property has no Go equivalent).
func krb5ConfPath() string {
	if p := os.Getenv("KRB5_CONFIG"); p != "" {
		return p
	}
	return "/etc/krb5.conf"
}

// kerberos maps GSSAPI with Krb5LoginModule onto franz-go's kerberos mechanism.
func (k *kgoClient) kerberos(j jaas, jaasFrom, from string) {
	svc, ok := k.user("sasl.kerberos.service.name")
	if !ok || javaTrim(svc.value) == "" {
		k.l.errorf(jaasFrom, "set sasl.kerberos.service.name to the brokers' Kerberos service name, e.g. kafka",
			"sasl.mechanism = GSSAPI needs sasl.kerberos.service.name (the Java client fails without it too)")
		return
	}
	s := &krb5Spec{service: javaTrim(svc.value), principal: j.opts["principal"]}
	switch {
	case j.opts["useKeyTab"] == "true":
		s.keytab = j.opts["keyTab"]
		if s.keytab == "" || s.principal == "" {
			k.l.errorf(jaasFrom, `add keyTab="/path/to/client.keytab" and principal="user@REALM"`,
				"sasl.jaas.config: Krb5LoginModule with useKeyTab=true needs keyTab and principal (StoatFlow does not read krb5.conf's default keytab or prompt)")
			return
		}
	case j.opts["useTicketCache"] == "true":
		s.ccache = j.opts["ticketCache"]
	default:
		k.l.errorf(jaasFrom, `add useKeyTab=true keyTab="..." principal="user@REALM", or useTicketCache=true`,
			"sasl.jaas.config: Krb5LoginModule without useKeyTab or useTicketCache would prompt for a password, which StoatFlow cannot")
		return
	}
	if s.keytab != "" {
		k.l.file(jaasFrom, s.keytab, "Kerberos keytab", `give keyTab="..." in sasl.jaas.config the path of a keytab the process can read (ktutil or kadmin makes one)`,
			keytabFile(s.keytab))
	}
	v := "GSSAPI service " + s.service + ", "
	if s.keytab != "" {
		v += "principal " + s.principal + ", keytab " + s.keytab
	} else {
		v += "ticket cache " + s.ccachePath()
	}
	k.add("kgo.SASL", v+", krb5.conf from $KRB5_CONFIG or /etc/krb5.conf", from, s.build)
}

func (s *krb5Spec) ccachePath() string {
	if s.ccache != "" {
		return s.ccache
	}
	if p := os.Getenv("KRB5CCNAME"); p != "" {
		return strings.TrimPrefix(p, "FILE:")
	}
	return "/tmp/krb5cc_" + strconv.Itoa(os.Getuid())
}

// client reads krb5.conf and the keytab or ticket cache.
func (s *krb5Spec) client() (*client.Client, error) {
	confPath := krb5ConfPath()
	conf, err := config.Load(confPath)
	if err != nil {
		return nil, fmt.Errorf("GSSAPI: krb5.conf %s: %w (set KRB5_CONFIG to its path)", confPath, err)
	}
	settings := client.DisablePAFXFAST(true) // as the JDK's Krb5LoginModule, which does not use FAST
	if s.keytab == "" {
		cc, err := credentials.LoadCCache(s.ccachePath())
		if err != nil {
			return nil, fmt.Errorf("GSSAPI: ticket cache %s: %w (run kinit, or use a keytab)", s.ccachePath(), err)
		}
		return client.NewFromCCache(cc, conf, settings)
	}
	kt, err := keytab.Load(s.keytab)
	if err != nil {
		return nil, fmt.Errorf("GSSAPI: keytab %s: %w", s.keytab, err)
	}
	user, realm, ok := strings.Cut(s.principal, "@")
	if !ok {
		realm = conf.LibDefaults.DefaultRealm
	}
	if realm == "" {
		return nil, errors.New("GSSAPI: principal " + s.principal + " names no realm and krb5.conf has no default_realm")
	}
	return client.NewWithKeytab(user, realm, kt, conf, settings), nil
}

func (s *krb5Spec) build() ([]kgo.Opt, error) {
	cl, err := s.client()
	if err != nil {
		return nil, err
	}
	return []kgo.Opt{kgo.SASL(kerberos.Auth{Client: cl, Service: s.service}.AsMechanismWithClose())}, nil
}
