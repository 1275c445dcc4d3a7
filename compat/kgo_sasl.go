package compat

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/oauth"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

const (
	plainModule = "org.apache.kafka.common.security.plain.PlainLoginModule"
	scramModule = "org.apache.kafka.common.security.scram.ScramLoginModule"
	oauthModule = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
	krb5Module  = "com.sun.security.auth.module.Krb5LoginModule"
	mechHint    = "use GSSAPI, PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER"
)

// oauthLoginHandlers are the Java login callback handlers whose work StoatFlow
// does itself: the OIDC client-credentials handler (old and new package).
var oauthLoginHandlers = set(`org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler
org.apache.kafka.common.security.oauthbearer.secured.OAuthBearerLoginCallbackHandler`)

// securityKeysOf are the keys that only matter with TLS or with SASL.
var (
	tlsOnlyKeys  = []string{"ssl.keystore.location", "ssl.keystore.key", "ssl.truststore.location", "ssl.truststore.certificates"}
	saslOnlyKeys = []string{"sasl.jaas.config", "sasl.oauthbearer.token.endpoint.url"}
)

// security maps security.protocol, the ssl.* keys and SASL. A setting that
// cannot be honoured is an error: the client never falls back to plaintext
// or to no authentication.
func (k *kgoClient) security() {
	proto := k.setting("security.protocol", "PLAINTEXT")
	p := strings.ToUpper(javaTrim(proto.value))
	useTLS := p == "SSL" || p == "SASL_SSL"
	useSASL := p == "SASL_PLAINTEXT" || p == "SASL_SSL"
	if useTLS {
		if t, desc, ok := k.tlsSetup(); ok {
			k.tlsSpec, k.tlsDesc, k.tlsFrom = t, strings.Join(desc, "; "), proto.from
		}
	} else {
		k.unused(tlsOnlyKeys, p, "no TLS")
	}
	if useSASL {
		k.sasl(proto.from)
	} else {
		// Java reads sasl.jaas.config only for SASL, but a value that
		// cannot be read is a mistake worth knowing before SASL is enabled.
		if js, ok := k.user("sasl.jaas.config"); ok && javaTrim(js.value) != "" {
			if _, err := parseJAAS(js.value); err != nil {
				k.l.errorf(js.from, `write it as <LoginModule> required key="value" ...;`, "sasl.jaas.config cannot be read: %v", err)
			}
		}
		k.unused(saslOnlyKeys, p, "no SASL")
	}
	if h, ok := k.user("sasl.login.callback.handler.class"); ok && !oauthLoginHandlers[javaTrim(h.value)] {
		k.l.errorf(h.from, "remove it and use the settings in docs/config.md", "%s = %s cannot be honoured by StoatFlow's Kafka client: it %s", h.from, h.value, whyClassName)
	}
}

// unused warns of security keys the protocol does not use (the Java client
// ignores them too), so a file that means TLS but says PLAINTEXT is noticed.
func (k *kgoClient) unused(keys []string, proto, what string) {
	for _, key := range keys {
		if s, ok := k.user(key); ok && javaTrim(s.value) != "" {
			k.l.warnf(s.from, "set security.protocol to SSL, SASL_SSL or SASL_PLAINTEXT, or remove it",
				"%s is ignored: security.protocol = %s uses %s", s.from, proto, what)
		}
	}
}

// sasl maps sasl.mechanism and sasl.jaas.config onto a franz-go mechanism.
func (k *kgoClient) sasl(protoFrom string) {
	mech := k.setting("sasl.mechanism", "GSSAPI")
	m := strings.ToUpper(javaTrim(mech.value))
	fail := func(key, hint, format string, args ...any) {
		k.l.errorf(key, hint, format, args...)
	}
	if m != "GSSAPI" && m != "PLAIN" && m != "SCRAM-SHA-256" && m != "SCRAM-SHA-512" && m != "OAUTHBEARER" {
		fail(mech.from, mechHint, "sasl.mechanism = %s is not a SASL mechanism StoatFlow's Kafka client has", mech.value)
		return
	}
	js, ok := k.java["sasl.jaas.config"]
	if !ok || javaTrim(js.value) == "" {
		fail(protoFrom, `set sasl.jaas.config, e.g. org.apache.kafka.common.security.scram.ScramLoginModule required username="..." password="...";`,
			"security.protocol uses SASL but sasl.jaas.config is not set; StoatFlow reads no JAAS file")
		return
	}
	j, err := parseJAAS(js.value)
	if err != nil {
		fail(js.from, `write it as <LoginModule> required key="value" ...;`, "sasl.jaas.config cannot be read: %v", err)
		return
	}
	from := mech.from + ", " + js.from
	switch {
	case m == "GSSAPI" && j.module != krb5Module:
		fail(js.from, "use "+krb5Module, "sasl.jaas.config uses %s, but sasl.mechanism = GSSAPI (the Java default when it is not set) needs Krb5LoginModule", shortClass(j.module))
	case m == "GSSAPI":
		k.kerberos(j, js.from, from)
	case j.module == krb5Module:
		fail(js.from, "set sasl.mechanism=GSSAPI", "sasl.jaas.config uses Krb5LoginModule, but sasl.mechanism = %s", m)
	case m == "OAUTHBEARER" && j.module != oauthModule:
		fail(js.from, "use "+oauthModule, "sasl.jaas.config uses %s, but sasl.mechanism = OAUTHBEARER needs OAuthBearerLoginModule", shortClass(j.module))
	case m == "OAUTHBEARER":
		k.oauth(j, from)
	case j.module != plainModule && j.module != scramModule:
		fail(js.from, "use "+plainModule+" or "+scramModule, "sasl.jaas.config login module %s cannot give sasl.mechanism = %s a user name and password", j.module, m)
	case j.opts["username"] == "":
		fail(js.from, `add username="..." to the JAAS options`, "sasl.jaas.config has no username for %s", shortClass(j.module))
	case m == "PLAIN":
		a := plain.Auth{User: j.opts["username"], Pass: j.opts["password"]}
		k.add("kgo.SASL", "PLAIN user "+a.User+" password [hidden]", from, opt(kgo.SASL(a.AsMechanism())))
	default:
		a := scram.Auth{User: j.opts["username"], Pass: j.opts["password"], IsToken: j.opts["tokenauth"] == "true"}
		var mechanism sasl.Mechanism
		if m == "SCRAM-SHA-256" {
			mechanism = a.AsSha256Mechanism()
		} else {
			mechanism = a.AsSha512Mechanism()
		}
		v := m + " user " + a.User + " password [hidden]"
		if a.IsToken {
			v += " (delegation token)"
		}
		k.add("kgo.SASL", v, from, opt(kgo.SASL(mechanism)))
	}
}

// oauth maps OAUTHBEARER: a token from a file (a file: token endpoint URL),
// the OIDC client-credentials grant (an http(s) token endpoint URL), or,
// without an endpoint, the unsecured JWT of Kafka's default login handler.
func (k *kgoClient) oauth(j jaas, from string) {
	ext := map[string]string{}
	endpoint, hasEndpoint := k.user("sasl.oauthbearer.token.endpoint.url")
	u, err := url.Parse(javaTrim(endpoint.value))
	switch {
	case !hasEndpoint:
		for name, v := range j.opts {
			if e, ok := strings.CutPrefix(name, "unsecuredLoginExtension_"); ok {
				ext[e] = v
			}
		}
		tok, err := newUnsecuredJWT(j.opts)
		if err != nil {
			k.l.errorf(k.java["sasl.jaas.config"].from, `add unsecuredLoginStringClaim_sub="<principal>", or set sasl.oauthbearer.token.endpoint.url for a real identity provider`,
				"sasl.jaas.config: %v", err)
			return
		}
		k.add("kgo.SASL", "OAUTHBEARER unsecured JWT (Kafka's default login handler), "+tok.principal(), from,
			opt(kgo.SASL(oauth.Oauth(func(context.Context) (oauth.Auth, error) {
				return oauth.Auth{Token: tok.token(time.Now()), Extensions: ext}, nil
			}))))
	case err != nil || u.Scheme == "":
		k.l.errorf(endpoint.from, "write an https:// URL of the token endpoint, or file:///path/to/token", "%s = %s is not a URL", endpoint.from, endpoint.value)
	case u.Scheme == "file":
		path := u.Path
		k.l.file(endpoint.from, path, "OAUTHBEARER token file", "give a file: URL of a file the process can read, holding the token your identity provider issued",
			func() error { _, err := os.ReadFile(path); return err })
		k.add("kgo.SASL", "OAUTHBEARER token read from "+path+" on each connection", from+", "+endpoint.from,
			opt(kgo.SASL(oauth.Oauth(func(context.Context) (oauth.Auth, error) {
				b, err := os.ReadFile(path)
				if err != nil {
					return oauth.Auth{}, fmt.Errorf("compat: OAUTHBEARER token: %w", err)
				}
				return oauth.Auth{Token: strings.TrimSpace(string(b))}, nil
			}))))
	case u.Scheme == "http" || u.Scheme == "https":
		for name, v := range j.opts {
			if e, ok := strings.CutPrefix(name, "extension_"); ok {
				ext[e] = v
			}
		}
		cc := &clientCredentials{endpoint: u.String(), extensions: ext}
		idKey, secretKey := "sasl.oauthbearer.client.credentials.client.id", "sasl.oauthbearer.client.credentials.client.secret"
		cc.clientID, cc.secret, cc.scope = j.opts["clientId"], j.opts["clientSecret"], j.opts["scope"]
		if s, ok := k.user(idKey); ok {
			cc.clientID = javaTrim(s.value)
		}
		if s, ok := k.user(secretKey); ok {
			cc.secret = javaTrim(s.value)
		}
		if s, ok := k.user("sasl.oauthbearer.scope"); ok {
			cc.scope = javaTrim(s.value)
		}
		cc.urlencode = k.java["sasl.oauthbearer.header.urlencode"].value == "true"
		cc.timeout = 10 * time.Second
		if c, r := k.setting("sasl.login.connect.timeout.ms", ""), k.setting("sasl.login.read.timeout.ms", ""); c.value != "" || r.value != "" {
			cc.timeout = ms(c.value) + ms(r.value)
		}
		if cc.clientID == "" || cc.secret == "" {
			k.l.errorf(endpoint.from, "set "+idKey+" and "+secretKey+` (or clientId="..." clientSecret="..." in sasl.jaas.config)`,
				"%s is set but the client id or secret of the client_credentials grant is missing", endpoint.from)
			return
		}
		v := fmt.Sprintf("OAUTHBEARER client_credentials grant at %s, client id %s, secret [hidden]", cc.endpoint, cc.clientID)
		if cc.scope != "" {
			v += ", scope " + cc.scope
		}
		k.add("kgo.SASL", v, from+", "+endpoint.from, opt(kgo.SASL(oauth.Oauth(cc.auth))))
	default:
		k.l.errorf(endpoint.from, "write an https:// URL of the token endpoint, or file:///path/to/token", "%s = %s: the %s scheme is not supported", endpoint.from, endpoint.value, u.Scheme)
	}
}

// unsecuredJWT is the token of Kafka's OAuthBearerUnsecuredLoginCallbackHandler:
// an unsigned JWT (alg none) with the JAAS option claims, issued now.
type unsecuredJWT struct {
	claims         map[string]any
	principalClaim string
	lifetime       time.Duration
}

func newUnsecuredJWT(opts map[string]string) (*unsecuredJWT, error) {
	t := &unsecuredJWT{claims: map[string]any{}, principalClaim: "sub", lifetime: time.Hour}
	if n := opts["unsecuredLoginPrincipalClaimName"]; n != "" {
		t.principalClaim = n
	}
	if s := opts["unsecuredLoginLifetimeSeconds"]; s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("unsecuredLoginLifetimeSeconds = %s is not a positive whole number", s)
		}
		t.lifetime = time.Duration(n) * time.Second
	}
	for name, v := range opts {
		switch {
		case strings.HasPrefix(name, "unsecuredLoginStringClaim_"):
			t.claims[strings.TrimPrefix(name, "unsecuredLoginStringClaim_")] = v
		case strings.HasPrefix(name, "unsecuredLoginNumberClaim_"):
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, fmt.Errorf("%s = %s is not a number", name, v)
			}
			t.claims[strings.TrimPrefix(name, "unsecuredLoginNumberClaim_")] = n
		case strings.HasPrefix(name, "unsecuredLoginListClaim_"):
			// The first character is the separator, as in Kafka.
			var list []string
			if v != "" {
				list = strings.Split(v[1:], v[:1])
			}
			t.claims[strings.TrimPrefix(name, "unsecuredLoginListClaim_")] = list
		}
	}
	for _, reserved := range []string{"iat", "exp"} {
		if _, ok := t.claims[reserved]; ok {
			return nil, fmt.Errorf("the %s claim is set by the login handler and cannot be given", reserved)
		}
	}
	if p, _ := t.claims[t.principalClaim].(string); p == "" {
		return nil, fmt.Errorf("OAuthBearerLoginModule without a token endpoint needs unsecuredLoginStringClaim_%s (the principal)", t.principalClaim)
	}
	return t, nil
}

func (t *unsecuredJWT) principal() string {
	return t.principalClaim + "=" + t.claims[t.principalClaim].(string)
}

func (t *unsecuredJWT) token(now time.Time) string {
	claims := make(map[string]any, len(t.claims)+2)
	for k, v := range t.claims {
		claims[k] = v
	}
	claims["iat"] = float64(now.UnixMilli()) / 1000
	claims["exp"] = float64(now.Add(t.lifetime).UnixMilli()) / 1000
	header, _ := json.Marshal(map[string]string{"alg": "none"})
	body, _ := json.Marshal(claims)
	enc := base64.RawURLEncoding
	return enc.EncodeToString(header) + "." + enc.EncodeToString(body) + "."
}

// clientCredentials fetches tokens with the OAuth 2 client-credentials grant,
// as Kafka's OAuthBearerLoginCallbackHandler does, and keeps each until 80%
// of its lifetime has passed (Kafka's default refresh window).
type clientCredentials struct {
	endpoint, clientID, secret, scope string
	urlencode                         bool
	timeout                           time.Duration
	extensions                        map[string]string

	mu      sync.Mutex
	token   string
	refresh time.Time
}

func (c *clientCredentials) auth(ctx context.Context) (oauth.Auth, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.token != "" && time.Now().Before(c.refresh) {
		return oauth.Auth{Token: c.token, Extensions: c.extensions}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	form := url.Values{"grant_type": {"client_credentials"}}
	if c.scope != "" {
		form.Set("scope", c.scope)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return oauth.Auth{}, fmt.Errorf("compat: OAUTHBEARER token endpoint %s: %w", c.endpoint, err)
	}
	id, secret := c.clientID, c.secret
	if c.urlencode {
		id, secret = url.QueryEscape(id), url.QueryEscape(secret)
	}
	req.SetBasicAuth(id, secret)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return oauth.Auth{}, fmt.Errorf("compat: OAUTHBEARER token endpoint %s: %w", c.endpoint, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return oauth.Auth{}, fmt.Errorf("compat: OAUTHBEARER token endpoint %s: %w", c.endpoint, err)
	}
	if resp.StatusCode != http.StatusOK {
		// The body may echo the request; only the status is reported.
		return oauth.Auth{}, fmt.Errorf("compat: OAUTHBEARER token endpoint %s answered %s; check the client id and secret", c.endpoint, resp.Status)
	}
	var tr struct {
		AccessToken string  `json:"access_token"`
		ExpiresIn   float64 `json:"expires_in"`
	}
	if err := json.Unmarshal(body, &tr); err != nil || tr.AccessToken == "" {
		return oauth.Auth{}, fmt.Errorf("compat: OAUTHBEARER token endpoint %s: the answer has no access_token", c.endpoint)
	}
	c.token = tr.AccessToken
	life := time.Duration(tr.ExpiresIn * float64(time.Second))
	if life <= 0 {
		life = time.Minute
	}
	c.refresh = time.Now().Add(life * 8 / 10)
	return oauth.Auth{Token: c.token, Extensions: c.extensions}, nil
}
