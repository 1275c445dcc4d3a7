package compat

import (
	"crypto/tls"
	"fmt"
	"os"

	"github.com/jcmturner/gokrb5/v8/keytab"

	"github.com/stoatflow/stoatflow/properties"
)

// fileSetting is a file a key names for StoatFlow to read when it starts:
// a trust or key store, a Kerberos keytab, an OAUTHBEARER token file, the
// HTTP server's certificate or key. Load only records it; CheckFiles reads
// it.
type fileSetting struct {
	key  string // the key that names it (sasl.jaas.config for a keyTab)
	pos  properties.Pos
	path string
	// what names the file for a message ("trust store"); hint says what
	// to do when it cannot be read.
	what, hint string
	// read reads the file as the client or server that uses it will.
	read func() error
}

// file records a file key names, once per key and path.
func (l *loader) file(key, path, what, hint string, read func() error) {
	for _, f := range l.files {
		if f.key == key && f.path == path {
			return
		}
	}
	e, _ := l.p.Get(key)
	l.files = append(l.files, fileSetting{key: key, pos: e.Pos, path: path, what: what, hint: hint, read: read})
}

// tlsFiles records the stores t reads, named by trustKey and keyKey.
func (l *loader) tlsFiles(t *tlsSpec, trustKey, keyKey string) {
	if t == nil {
		return
	}
	if t.trustLocation != "" {
		l.file(trustKey, t.trustLocation, t.trustType+" trust store",
			"give the path of a "+t.trustType+" trust store the process can read, with its password in "+trustKey[:len(trustKey)-len("location")]+"password",
			func() error { _, err := readTrustStore(t.trustType, t.trustLocation, t.trustPassword); return err })
	}
	if t.keyLocation != "" {
		l.file(keyKey, t.keyLocation, t.keyType+" key store",
			"give the path of a "+t.keyType+" key store the process can read, with its passwords in "+keyKey[:len(keyKey)-len("location")]+"password and ssl.key.password",
			func() error {
				_, err := readKeyStore(t.keyType, t.keyLocation, t.keyStorePassword, t.keyPassword)
				return err
			})
	}
}

// httpFiles records the HTTP server's certificate and key files.
func (l *loader) httpFiles(c *Config) {
	if c.HTTPTLSCertFile == "" || c.HTTPTLSKeyFile == "" {
		return
	}
	cert, key := c.HTTPTLSCertFile, c.HTTPTLSKeyFile
	l.file(HTTPTLSKeyFileConfig, key, "HTTP server key", "give the path of the PEM private key of "+HTTPTLSCertFileConfig+"'s certificate",
		func() error { _, err := os.ReadFile(key); return err })
	l.file(HTTPTLSCertFileConfig, cert, "HTTP server certificate", "give the path of a PEM certificate that matches "+HTTPTLSKeyFileConfig,
		func() error {
			if _, err := os.ReadFile(cert); err != nil {
				return err
			}
			if _, err := os.ReadFile(key); err != nil {
				return nil // reported on the key's line
			}
			_, err := tls.LoadX509KeyPair(cert, key)
			return err
		})
}

// CheckFiles reads every file the configuration names for StoatFlow to
// read when it starts (trust and key stores of the clients and of the
// schema registry client, a Kerberos keytab, an OAUTHBEARER token file, the
// HTTP server's certificate and key) as the running application will, and
// returns an error Diagnostic on the naming key's line for each one it
// cannot read or parse. Load does not read them, so that a configuration
// can be loaded and printed where its files are not; a program about to
// start calls this first.
func (c *Config) CheckFiles() Diagnostics {
	var ds Diagnostics
	for _, f := range c.files {
		if err := f.read(); err != nil {
			ds = append(ds, Diagnostic{Severity: SeverityError, Key: f.key, Pos: f.pos,
				Message: fmt.Sprintf("%s: cannot read the %s %s", f.key, f.what, f.path), Hint: f.hint + " (" + err.Error() + ")"})
		}
	}
	return ds
}

// Pos returns where key was set: its file and line, or the --set override
// that gave it; zero when it was not set.
func (c *Config) Pos(key string) properties.Pos { return c.positions[key] }

// keytabFile reads a Kerberos keytab as the GSSAPI login does.
func keytabFile(path string) func() error {
	return func() error { _, err := keytab.Load(path); return err }
}
