package properties

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// The Java class names of the config providers StoatFlow implements, as written
// in config.providers.<name>.class.
const (
	EnvVarProviderClass    = "org.apache.kafka.common.config.provider.EnvVarConfigProvider"
	FileProviderClass      = "org.apache.kafka.common.config.provider.FileConfigProvider"
	DirectoryProviderClass = "org.apache.kafka.common.config.provider.DirectoryConfigProvider"
)

// ConfigProvidersKey is the key listing the names of the config providers.
const ConfigProvidersKey = "config.providers"

// variablePattern is Kafka's ConfigTransformer pattern: ${provider:[path:]key}.
var variablePattern = regexp.MustCompile(`\$\{([^}]*?):(([^}]*?):)?([^}]*?)\}`)

// Environment gives Resolve its access to the outside world, so tests can
// replace it. A nil field uses the real one.
type Environment struct {
	// LookupEnv returns an environment variable; default os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// ReadFile returns a file's contents; default os.ReadFile.
	ReadFile func(string) ([]byte, error)
	// IsRegularFile reports whether path is a regular file; default uses os.Stat.
	IsRegularFile func(string) bool
}

func (e *Environment) lookupEnv(k string) (string, bool) {
	if e != nil && e.LookupEnv != nil {
		return e.LookupEnv(k)
	}
	return os.LookupEnv(k)
}

func (e *Environment) readFile(p string) ([]byte, error) {
	if e != nil && e.ReadFile != nil {
		return e.ReadFile(p)
	}
	return os.ReadFile(p)
}

func (e *Environment) isRegular(p string) bool {
	if e != nil && e.IsRegularFile != nil {
		return e.IsRegularFile(p)
	}
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// ProviderError is a failure to resolve a ${provider:...} reference or to set
// up a provider, with the key and position that caused it.
type ProviderError struct {
	Key string
	Pos Pos
	Msg string
}

// Error implements error.
func (e *ProviderError) Error() string {
	return fmt.Sprintf("%s: %s: %s", e.Pos, e.Key, e.Msg)
}

// ErrProvider is matched by errors.Is for every *ProviderError.
var ErrProvider = errors.New("properties: config provider")

// Is lets errors.Is match ErrProvider.
func (e *ProviderError) Is(target error) bool { return target == ErrProvider }

// Warning is a finding of Resolve that does not stop the application.
type Warning struct {
	Key string
	Pos Pos
	Msg string
}

// String renders "pos: key: message".
func (w Warning) String() string { return fmt.Sprintf("%s: %s: %s", w.Pos, w.Key, w.Msg) }

type provider struct {
	name   string
	class  string
	params map[string]string
	pos    Pos
	allow  *regexp.Regexp // env: allowlist.pattern
	paths  []string       // file, directory: allowed.paths
}

// Resolve replaces ${name:[path:]key} references in every value with what the
// named config provider returns, as Kafka's AbstractConfig does at start-up.
// Providers are declared as in Kafka: config.providers=env,file and
// config.providers.env.class=org.apache.kafka.common.config.provider.EnvVarConfigProvider,
// with optional config.providers.<name>.param.<p> settings (allowlist.pattern
// for EnvVarConfigProvider, allowed.paths for the file and directory providers).
//
// Unlike Kafka, which leaves an unresolvable reference in place, a reference to a
// configured provider that yields no value is an error, as is an unknown provider
// class: a literal "${env:PASSWORD}" reaching a broker is never what the user
// meant. A reference to a name that is not a configured provider is left as it is
// and reported in the returned warnings. All errors are returned together.
func Resolve(p *Properties, env *Environment) (warnings []Warning, err error) {
	if p == nil {
		return nil, nil
	}
	provs, errs := providersOf(p)
	for _, key := range p.Keys() {
		if key == ConfigProvidersKey || strings.HasPrefix(key, ConfigProvidersKey+".") {
			continue
		}
		e, _ := p.Get(key)
		if !strings.Contains(e.Value, "${") {
			continue
		}
		var unresolved []string
		var keyErrs []error
		nv := variablePattern.ReplaceAllStringFunc(e.Value, func(m string) string {
			g := variablePattern.FindStringSubmatch(m)
			name, path, vkey := g[1], g[3], g[4]
			pr, ok := provs[name]
			if !ok {
				unresolved = append(unresolved, m)
				return m
			}
			v, verr := pr.get(env, path, vkey)
			if verr != nil {
				keyErrs = append(keyErrs, &ProviderError{Key: key, Pos: e.Pos, Msg: fmt.Sprintf("cannot resolve %s: %s", m, verr)})
				return m
			}
			return v
		})
		errs = append(errs, keyErrs...)
		for _, u := range unresolved {
			warnings = append(warnings, Warning{Key: key, Pos: e.Pos,
				Msg: fmt.Sprintf("%s names no configured config provider and is left as it is; list the provider in %s if it should be resolved", u, ConfigProvidersKey)})
		}
		if len(keyErrs) == 0 {
			e.Value = nv
			p.Set(e)
		}
	}
	return warnings, errors.Join(errs...)
}

func providersOf(p *Properties) (map[string]*provider, []error) {
	out := map[string]*provider{}
	list, ok := p.Get(ConfigProvidersKey)
	if !ok || strings.TrimSpace(list.Value) == "" {
		return out, nil
	}
	var errs []error
	for _, name := range strings.Split(strings.TrimSpace(list.Value), ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		classKey := ConfigProvidersKey + "." + name + ".class"
		ce, ok := p.Get(classKey)
		if !ok {
			errs = append(errs, &ProviderError{Key: ConfigProvidersKey, Pos: list.Pos,
				Msg: fmt.Sprintf("config provider %q has no class; set %s to one of %s, %s, %s", name, classKey, EnvVarProviderClass, FileProviderClass, DirectoryProviderClass)})
			continue
		}
		pr := &provider{name: name, class: strings.TrimSpace(ce.Value), pos: ce.Pos, params: map[string]string{}}
		for k, e := range p.WithPrefix(ConfigProvidersKey + "." + name + ".param.") {
			pr.params[k] = e.Value
		}
		switch pr.class {
		case EnvVarProviderClass:
			if pat, ok := pr.params["allowlist.pattern"]; ok {
				re, err := regexp.Compile("^(?:" + pat + ")$")
				if err != nil {
					errs = append(errs, &ProviderError{Key: ConfigProvidersKey + "." + name + ".param.allowlist.pattern", Pos: ce.Pos,
						Msg: fmt.Sprintf("not a valid regular expression: %v", err)})
					continue
				}
				pr.allow = re
			}
		case FileProviderClass, DirectoryProviderClass:
			if ap, ok := pr.params["allowed.paths"]; ok {
				for _, a := range strings.Split(ap, ",") {
					if a = strings.TrimSpace(a); a != "" {
						pr.paths = append(pr.paths, filepath.Clean(a))
					}
				}
			}
		default:
			errs = append(errs, &ProviderError{Key: classKey, Pos: ce.Pos,
				Msg: fmt.Sprintf("config provider class %s is not available in StoatFlow; use %s (${%s:NAME}), %s (${%s:path:key}) or %s (${%s:dir:file}), or resolve the value before starting", pr.class, EnvVarProviderClass, name, FileProviderClass, name, DirectoryProviderClass, name)})
			continue
		}
		out[name] = pr
	}
	return out, errs
}

func (pr *provider) allowedPath(path string) error {
	if len(pr.paths) == 0 {
		return nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	for _, a := range pr.paths {
		if abs == a || strings.HasPrefix(abs, strings.TrimSuffix(a, string(filepath.Separator))+string(filepath.Separator)) {
			return nil
		}
	}
	return fmt.Errorf("path %s is outside config.providers.%s.param.allowed.paths (%s)", path, pr.name, strings.Join(pr.paths, ","))
}

func (pr *provider) get(env *Environment, path, key string) (string, error) {
	switch pr.class {
	case EnvVarProviderClass:
		if path != "" {
			return "", fmt.Errorf("EnvVarConfigProvider takes no path; write ${%s:%s}", pr.name, key)
		}
		if pr.allow != nil && !pr.allow.MatchString(key) {
			return "", fmt.Errorf("environment variable %s does not match config.providers.%s.param.allowlist.pattern", key, pr.name)
		}
		v, ok := env.lookupEnv(key)
		if !ok {
			return "", fmt.Errorf("environment variable %s is not set; export it before starting", key)
		}
		return v, nil
	case FileProviderClass:
		if path == "" {
			return "", fmt.Errorf("FileConfigProvider needs a file; write ${%s:/path/to/file.properties:%s}", pr.name, key)
		}
		if err := pr.allowedPath(path); err != nil {
			return "", err
		}
		data, err := env.readFile(path)
		if err != nil {
			return "", fmt.Errorf("cannot read %s; give the path of a properties file the process can read (%v)", path, err)
		}
		fp, err := parseUTF8(path, data)
		if err != nil {
			return "", err
		}
		e, ok := fp.Get(key)
		if !ok {
			return "", fmt.Errorf("%s has no key %s; add it to the file, or name a key the file has", path, key)
		}
		return e.Value, nil
	case DirectoryProviderClass:
		if path == "" {
			return "", fmt.Errorf("DirectoryConfigProvider needs a directory; write ${%s:/path/to/dir:%s}", pr.name, key)
		}
		if err := pr.allowedPath(path); err != nil {
			return "", err
		}
		if strings.ContainsAny(key, `/\`) || key == ".." || key == "." {
			return "", fmt.Errorf("%s is not a file name directly inside %s", key, path)
		}
		f := filepath.Join(path, key)
		if !env.isRegular(f) {
			return "", fmt.Errorf("%s is not a regular file; give a directory holding a file %s (as a Kubernetes Secret mounted as a volume does)", f, key)
		}
		data, err := env.readFile(f)
		if err != nil {
			return "", fmt.Errorf("cannot read %s; give the process read access to it (%v)", f, err)
		}
		return string(data), nil
	}
	return "", fmt.Errorf("unknown provider class %s", pr.class)
}

// parseUTF8 parses a properties file the way FileConfigProvider reads it:
// through a UTF-8 Reader rather than an ISO-8859-1 stream.
func parseUTF8(name string, data []byte) (*Properties, error) {
	// Encode the UTF-8 text as ISO-8859-1 bytes with \u escapes for anything
	// outside Latin-1, so the one parser serves both readings.
	var b strings.Builder
	for _, r := range string(data) {
		if r < 0x100 {
			b.WriteByte(byte(r))
			continue
		}
		if r >= 0x10000 {
			r -= 0x10000
			fmt.Fprintf(&b, "\\u%04x\\u%04x", 0xD800+(r>>10), 0xDC00+(r&0x3FF))
			continue
		}
		fmt.Fprintf(&b, "\\u%04x", r)
	}
	return Parse(name, []byte(b.String()))
}
