package compat

import (
	"bytes"
	"crypto"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/pavlo-v-chernykh/keystore-go/v4"
	"github.com/twmb/franz-go/pkg/kgo"
	"software.sslmate.com/src/go-pkcs12"
)

// tlsSpec is a client's TLS setup as the Java keys describe it. The stores
// are read when the client is made (build), or by Config.CheckFiles, not
// when the config is loaded, so a configuration loads where the files are
// not.
type tlsSpec struct {
	trustType, trustLocation, trustPassword string
	trustPEM                                string // ssl.truststore.certificates
	keyType, keyLocation, keyStorePassword  string
	keyPassword                             string // ssl.key.password
	keyPEM, chainPEM                        string // ssl.keystore.key, ssl.keystore.certificate.chain
	verifyHostname                          bool
	minVersion, maxVersion                  uint16
	cipherSuites                            []uint16
}

var tlsVersions = map[string]uint16{"TLSv1": tls.VersionTLS10, "TLSv1.1": tls.VersionTLS11, "TLSv1.2": tls.VersionTLS12, "TLSv1.3": tls.VersionTLS13}

// tls13Suites are TLS 1.3's suites, which Go always enables.
var tls13Suites = set(`TLS_AES_128_GCM_SHA256 TLS_AES_256_GCM_SHA384 TLS_CHACHA20_POLY1305_SHA256`)

// storeTypes are the key and trust store types StoatFlow reads. JKS and
// PKCS12 files are told apart by their contents, as Java's keystore.type.compat does.
var storeTypes = set(`JKS PKCS12 PEM`)

// tls maps the ssl.* keys onto a TLS config; ok is false after an error.
func (k *kgoClient) tlsSetup() (*tlsSpec, []string, bool) {
	t := &tlsSpec{verifyHostname: true}
	ok := true
	fail := func(key, hint, format string, args ...any) {
		k.l.errorf(key, hint, format, args...)
		ok = false
	}
	var desc []string
	var trustFrom, keyFrom string // the keys naming the stores
	get := func(key string) (clientSetting, bool) {
		s, ok := k.java[key]
		return s, ok && javaTrim(s.value) != ""
	}
	if s, ok := k.java["ssl.endpoint.identification.algorithm"]; ok {
		switch v := strings.ToLower(javaTrim(s.value)); v {
		case "https":
		case "":
			t.verifyHostname = false
		default:
			fail(s.from, "set it to https, or to nothing to skip host name checks", "%s = %s is not an endpoint identification algorithm; only https (or empty, no host name check) exists", s.from, s.value)
		}
	}
	// ssl.protocol caps the version (TLSv1.2 means no TLS 1.3 even if
	// enabled); ssl.enabled.protocols lists the versions offered.
	proto := k.setting("ssl.protocol", "TLSv1.3")
	capVersion := uint16(tls.VersionTLS13)
	switch v := proto.value; {
	case v == "TLS":
	case tlsVersions[v] != 0:
		capVersion = tlsVersions[v]
	default:
		fail(proto.from, "set it to TLSv1.3 or TLSv1.2", "%s = %s is not a TLS version Go speaks (TLSv1 to TLSv1.3)", proto.from, v)
	}
	enabled := k.setting("ssl.enabled.protocols", "TLSv1.2,TLSv1.3")
	for _, p := range strings.Split(enabled.value, ",") {
		v, known := tlsVersions[strings.TrimSpace(p)]
		if !known {
			fail(enabled.from, "list TLSv1.2 and/or TLSv1.3", "%s lists %s, which is not a TLS version Go speaks (TLSv1 to TLSv1.3)", enabled.from, p)
			continue
		}
		if t.minVersion == 0 || v < t.minVersion {
			t.minVersion = v
		}
		t.maxVersion = max(t.maxVersion, v)
	}
	t.maxVersion = min(t.maxVersion, capVersion)
	if ok && t.minVersion > t.maxVersion {
		fail(enabled.from, "enable a version no higher than ssl.protocol", "%s (%s) enables no version allowed by ssl.protocol = %s", enabled.from, enabled.value, proto.value)
	}
	if ok {
		if t.minVersion == t.maxVersion {
			desc = append(desc, tls.VersionName(t.minVersion)+" only")
		} else {
			desc = append(desc, fmt.Sprintf("%s to %s", tls.VersionName(t.minVersion), tls.VersionName(t.maxVersion)))
		}
	}
	if s, ok := get("ssl.cipher.suites"); ok {
		byName := map[string]uint16{}
		for _, cs := range append(tls.CipherSuites(), tls.InsecureCipherSuites()...) {
			byName[cs.Name] = cs.ID
		}
		var names []string
		only13 := true
		for _, n := range strings.Split(javaTrim(s.value), ",") {
			n = strings.TrimSpace(n)
			switch id, known := byName[n]; {
			case tls13Suites[n]:
			case known:
				t.cipherSuites = append(t.cipherSuites, id)
				names = append(names, n)
				only13 = false
			default:
				fail(s.from, "list IANA cipher suite names Go knows, e.g. TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "%s lists %s, a cipher suite Go does not have", s.from, n)
			}
		}
		if t.maxVersion == tls.VersionTLS13 {
			k.l.warnf(s.from, "remove it, or cap the version with ssl.protocol=TLSv1.2", "%s = %s: Go applies the list to TLS 1.2 only and always offers every TLS 1.3 suite (all of them AEAD)", s.from, s.value)
		}
		if only13 {
			t.cipherSuites = nil
		}
		if len(names) > 0 {
			desc = append(desc, "TLS 1.2 cipher suites "+strings.Join(names, ","))
		}
	}

	// Trust: the PEM certificates given inline, or a store, or the system's roots.
	if s, ok := get("ssl.truststore.certificates"); ok {
		t.trustPEM = javaTrim(s.value)
		desc = append(desc, "CA certificates from "+s.from)
		if loc, ok := get("ssl.truststore.location"); ok {
			fail(loc.from, "keep one of them", "%s and %s are both set; give the trusted certificates one way", s.from, loc.from)
		}
	} else if s, ok := get("ssl.truststore.location"); ok {
		trustFrom = s.from
		t.trustLocation = javaTrim(s.value)
		t.trustType = strings.ToUpper(javaTrim(k.setting("ssl.truststore.type", "JKS").value))
		if !storeTypes[t.trustType] {
			fail(origin(k.java["ssl.truststore.type"], s.from), "use JKS, PKCS12 or PEM", "ssl.truststore.type = %s is not a store type StoatFlow reads (JKS, PKCS12, PEM)", t.trustType)
		}
		if p, ok := get("ssl.truststore.password"); ok {
			t.trustPassword = javaTrim(p.value)
		}
		desc = append(desc, fmt.Sprintf("trust store %s (%s)", t.trustLocation, t.trustType))
	} else {
		desc = append(desc, "the system's CA certificates")
	}
	if !t.verifyHostname {
		desc = append(desc, "certificate chain verified, host name not checked")
	} else {
		desc = append(desc, "certificate chain and host name verified")
	}

	// The client's own certificate.
	if p, ok := get("ssl.key.password"); ok {
		t.keyPassword = javaTrim(p.value)
	}
	if s, ok := get("ssl.keystore.key"); ok {
		t.keyPEM = javaTrim(s.value)
		c, ok := get("ssl.keystore.certificate.chain")
		if !ok {
			fail(s.from, "add ssl.keystore.certificate.chain with the client certificate in PEM", "%s is set without ssl.keystore.certificate.chain", s.from)
		}
		t.chainPEM = javaTrim(c.value)
		desc = append(desc, "client certificate from "+s.from)
		if loc, ok := get("ssl.keystore.location"); ok {
			fail(loc.from, "keep one of them", "%s and %s are both set; give the client key one way", s.from, loc.from)
		}
	} else if s, ok := get("ssl.keystore.location"); ok {
		keyFrom = s.from
		t.keyLocation = javaTrim(s.value)
		t.keyType = strings.ToUpper(javaTrim(k.setting("ssl.keystore.type", "JKS").value))
		if !storeTypes[t.keyType] {
			fail(origin(k.java["ssl.keystore.type"], s.from), "use JKS, PKCS12 or PEM", "ssl.keystore.type = %s is not a store type StoatFlow reads (JKS, PKCS12, PEM)", t.keyType)
		}
		if p, ok := get("ssl.keystore.password"); ok {
			t.keyStorePassword = javaTrim(p.value)
		}
		d := fmt.Sprintf("client certificate from key store %s (%s", t.keyLocation, t.keyType)
		if t.keyStorePassword != "" || t.keyPassword != "" {
			d += ", password [hidden]"
		}
		desc = append(desc, d+")")
	} else if s, ok := get("ssl.keystore.certificate.chain"); ok {
		fail(s.from, "add ssl.keystore.key with the client's private key in PEM", "%s is set without ssl.keystore.key", s.from)
	}
	if ok {
		k.l.tlsFiles(t, trustFrom, keyFrom)
	}
	return t, desc, ok
}

// config reads the stores and returns the TLS config.
func (t *tlsSpec) config() (*tls.Config, error) {
	c := &tls.Config{MinVersion: t.minVersion, MaxVersion: t.maxVersion, CipherSuites: t.cipherSuites}
	switch {
	case t.trustPEM != "":
		roots, err := certPool([]byte(t.trustPEM), "ssl.truststore.certificates")
		if err != nil {
			return nil, err
		}
		c.RootCAs = roots
	case t.trustLocation != "":
		certs, err := readTrustStore(t.trustType, t.trustLocation, t.trustPassword)
		if err != nil {
			return nil, fmt.Errorf("ssl.truststore.location %s: %w", t.trustLocation, err)
		}
		c.RootCAs = x509.NewCertPool()
		for _, cert := range certs {
			c.RootCAs.AddCert(cert)
		}
	}
	switch {
	case t.keyPEM != "":
		cert, err := pemKeyPair([]byte(t.chainPEM), []byte(t.keyPEM))
		if err != nil {
			return nil, fmt.Errorf("ssl.keystore.key: %w", err)
		}
		c.Certificates = []tls.Certificate{cert}
	case t.keyLocation != "":
		certs, err := readKeyStore(t.keyType, t.keyLocation, t.keyStorePassword, t.keyPassword)
		if err != nil {
			return nil, fmt.Errorf("ssl.keystore.location %s: %w", t.keyLocation, err)
		}
		c.Certificates = certs
	}
	if !t.verifyHostname {
		// Java's empty ssl.endpoint.identification.algorithm skips only the
		// host name check: the chain must still lead to a trusted root.
		roots := c.RootCAs
		c.InsecureSkipVerify = true
		c.VerifyConnection = func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				return errors.New("compat: the broker sent no certificate")
			}
			inter := x509.NewCertPool()
			for _, ic := range cs.PeerCertificates[1:] {
				inter.AddCert(ic)
			}
			_, err := cs.PeerCertificates[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter})
			return err
		}
	}
	return c, nil
}

func (t *tlsSpec) build() ([]kgo.Opt, error) {
	c, err := t.config()
	if err != nil {
		return nil, err
	}
	return []kgo.Opt{kgo.DialTLSConfig(c)}, nil
}

func certPool(pemData []byte, what string) (*x509.CertPool, error) {
	certs, err := pemCerts(pemData)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	pool := x509.NewCertPool()
	for _, c := range certs {
		pool.AddCert(c)
	}
	return pool, nil
}

// pemCerts returns every CERTIFICATE block of pemData.
func pemCerts(pemData []byte) ([]*x509.Certificate, error) {
	var out []*x509.Certificate
	for rest := pemData; ; {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			break
		}
		if b.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			return nil, fmt.Errorf("a certificate cannot be read: %w", err)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, errors.New("no PEM certificate (-----BEGIN CERTIFICATE-----) found")
	}
	return out, nil
}

// pemKeyPair reads a certificate chain and an unencrypted private key.
func pemKeyPair(chainPEM, keyPEM []byte) (tls.Certificate, error) {
	var keyDER []byte
	for rest := keyPEM; ; {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			break
		}
		if b.Type == "ENCRYPTED PRIVATE KEY" {
			return tls.Certificate{}, errors.New("the private key is encrypted, which Go cannot read; decrypt it (openssl pkcs8 -in key.pem -out plain.pem) and keep the file readable by this user only")
		}
		if strings.HasSuffix(b.Type, "PRIVATE KEY") {
			keyDER = pem.EncodeToMemory(b)
			break
		}
	}
	if keyDER == nil {
		return tls.Certificate{}, errors.New("no PEM private key (-----BEGIN PRIVATE KEY-----) found")
	}
	if _, err := pemCerts(chainPEM); err != nil {
		return tls.Certificate{}, err
	}
	cert, err := tls.X509KeyPair(chainPEM, keyDER)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("the key and certificate cannot be used: %w", err)
	}
	return cert, nil
}

// isJKS reports whether data is a Java KeyStore (magic 0xFEEDFEED); other
// stores of type JKS or PKCS12 are read as PKCS12.
func isJKS(data []byte) bool { return bytes.HasPrefix(data, []byte{0xfe, 0xed, 0xfe, 0xed}) }

func readTrustStore(typ, location, password string) ([]*x509.Certificate, error) {
	data, err := os.ReadFile(location)
	if err != nil {
		return nil, err
	}
	switch {
	case typ == "PEM":
		return pemCerts(data)
	case isJKS(data):
		ks, err := loadJKS(data, password)
		if err != nil {
			return nil, err
		}
		var out []*x509.Certificate
		for _, alias := range ks.Aliases() {
			var der []byte
			if e, err := ks.GetTrustedCertificateEntry(alias); err == nil {
				der = e.Certificate.Content
			} else if chain, err := ks.GetPrivateKeyEntryCertificateChain(alias); err == nil && len(chain) > 0 {
				der = chain[0].Content // Java trusts a key entry's certificate too
			}
			if der == nil {
				continue
			}
			c, err := x509.ParseCertificate(der)
			if err != nil {
				return nil, fmt.Errorf("entry %s: %w", alias, err)
			}
			out = append(out, c)
		}
		if len(out) == 0 {
			return nil, errors.New("the JKS store has no certificate")
		}
		return out, nil
	default:
		certs, err := pkcs12.DecodeTrustStore(data, password)
		if err != nil {
			return nil, fmt.Errorf("as PKCS12: %w (check ssl.truststore.password)", err)
		}
		if len(certs) == 0 {
			return nil, errors.New("the PKCS12 store has no trusted certificate")
		}
		return certs, nil
	}
}

// loadJKS reads a JKS store. Without a password Java skips the integrity
// check, and so does StoatFlow; with one, a wrong password is an error.
func loadJKS(data []byte, password string) (keystore.KeyStore, error) {
	ks := keystore.New()
	err := ks.Load(bytes.NewReader(data), []byte(password))
	if err != nil && !(password == "" && err.Error() == "got invalid digest") {
		return ks, fmt.Errorf("as JKS: %w (check the store password)", err)
	}
	return ks, nil
}

func readKeyStore(typ, location, storePassword, keyPassword string) ([]tls.Certificate, error) {
	data, err := os.ReadFile(location)
	if err != nil {
		return nil, err
	}
	if keyPassword == "" {
		keyPassword = storePassword // Java's default
	}
	switch {
	case typ == "PEM":
		cert, err := pemKeyPair(data, data)
		if err != nil {
			return nil, err
		}
		return []tls.Certificate{cert}, nil
	case isJKS(data):
		ks, err := loadJKS(data, storePassword)
		if err != nil {
			return nil, err
		}
		var out []tls.Certificate
		aliases := ks.Aliases()
		slices.Sort(aliases)
		for _, alias := range aliases {
			if !ks.IsPrivateKeyEntry(alias) {
				continue
			}
			e, err := ks.GetPrivateKeyEntry(alias, []byte(keyPassword))
			if err != nil {
				return nil, fmt.Errorf("key entry %s: %w (check ssl.key.password)", alias, err)
			}
			key, err := x509.ParsePKCS8PrivateKey(e.PrivateKey)
			if err != nil {
				return nil, fmt.Errorf("key entry %s: %w", alias, err)
			}
			cert := tls.Certificate{PrivateKey: key}
			for _, c := range e.CertificateChain {
				cert.Certificate = append(cert.Certificate, c.Content)
			}
			if len(cert.Certificate) == 0 {
				return nil, fmt.Errorf("key entry %s has no certificate", alias)
			}
			out = append(out, cert)
		}
		if len(out) == 0 {
			return nil, errors.New("the JKS store has no private key entry")
		}
		return out, nil
	default:
		key, leaf, cas, err := pkcs12.DecodeChain(data, storePassword)
		if err != nil && keyPassword != storePassword {
			key, leaf, cas, err = pkcs12.DecodeChain(data, keyPassword)
		}
		if err != nil {
			return nil, fmt.Errorf("as PKCS12: %w (check ssl.keystore.password)", err)
		}
		if _, ok := key.(crypto.Signer); !ok {
			return nil, errors.New("the PKCS12 store's key cannot sign")
		}
		cert := tls.Certificate{PrivateKey: key, Leaf: leaf, Certificate: [][]byte{leaf.Raw}}
		for _, ca := range cas {
			cert.Certificate = append(cert.Certificate, ca.Raw)
		}
		return []tls.Certificate{cert}, nil
	}
}
