package properties

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"unicode/utf16"
)

// Pos is where a key's value came from: a file and the 1-based line on which the
// key's logical line starts, or an override given on the command line.
type Pos struct {
	// File is the file name as given to Parse or ParseFile, or "--set" for
	// command-line overrides and "" for values set in code.
	File string
	// Line is the 1-based line number in File; for --set overrides it is the
	// 1-based position of the override among the --set flags.
	Line int
}

// String renders the position as "file:line", "--set #n" or "(default)".
func (p Pos) String() string {
	switch {
	case p.File == "" && p.Line == 0:
		return "(default)"
	case p.File == SetSource:
		return fmt.Sprintf("--set #%d", p.Line)
	default:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
}

// IsZero reports whether the position is unknown.
func (p Pos) IsZero() bool { return p.File == "" && p.Line == 0 }

// SetSource is the File of entries that come from --set overrides.
const SetSource = "--set"

// Entry is one key and its value with the place it was read from.
type Entry struct {
	Key   string
	Value string
	Pos   Pos
}

// Properties is an ordered set of keys with values and positions. The zero value
// is empty and ready to use. Setting a key that is already present replaces its
// value and position, as java.util.Properties does for duplicate keys.
type Properties struct {
	entries map[string]Entry
}

// New returns an empty Properties.
func New() *Properties { return &Properties{entries: map[string]Entry{}} }

// Set stores e, replacing any earlier value of e.Key.
func (p *Properties) Set(e Entry) {
	if p.entries == nil {
		p.entries = map[string]Entry{}
	}
	p.entries[e.Key] = e
}

// Delete removes key.
func (p *Properties) Delete(key string) { delete(p.entries, key) }

// Get returns the entry of key.
func (p *Properties) Get(key string) (Entry, bool) {
	e, ok := p.entries[key]
	return e, ok
}

// Value returns the value of key, or "" when it is absent.
func (p *Properties) Value(key string) string { return p.entries[key].Value }

// Has reports whether key is present.
func (p *Properties) Has(key string) bool {
	_, ok := p.entries[key]
	return ok
}

// Len returns the number of keys.
func (p *Properties) Len() int { return len(p.entries) }

// Keys returns every key in sorted order.
func (p *Properties) Keys() []string {
	keys := make([]string, 0, len(p.entries))
	for k := range p.entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Entries returns every entry sorted by key.
func (p *Properties) Entries() []Entry {
	out := make([]Entry, 0, len(p.entries))
	for _, k := range p.Keys() {
		out = append(out, p.entries[k])
	}
	return out
}

// WithPrefix returns the entries whose key starts with prefix, with the prefix
// removed from their keys, as Kafka's originalsWithPrefix does.
func (p *Properties) WithPrefix(prefix string) map[string]Entry {
	out := map[string]Entry{}
	for k, e := range p.entries {
		if strings.HasPrefix(k, prefix) {
			e.Key = strings.TrimPrefix(k, prefix)
			out[e.Key] = e
		}
	}
	return out
}

// Clone returns an independent copy.
func (p *Properties) Clone() *Properties {
	c := New()
	for k, e := range p.entries {
		c.entries[k] = e
	}
	return c
}

// Merge copies every entry of other into p; other's values win.
func (p *Properties) Merge(other *Properties) {
	if other == nil {
		return
	}
	for _, e := range other.entries {
		p.Set(e)
	}
}

// SyntaxError reports text that java.util.Properties would refuse to load.
type SyntaxError struct {
	Pos Pos
	Msg string
}

// Error implements error.
func (e *SyntaxError) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrMalformedUnicode is matched by errors.Is for a bad \uXXXX escape.
var ErrMalformedUnicode = errors.New("properties: malformed \\uxxxx escape")

// Is lets errors.Is match ErrMalformedUnicode.
func (e *SyntaxError) Is(target error) bool {
	return target == ErrMalformedUnicode && e.Msg == malformedUnicode
}

// errMalformed is unescape's failure; Parse reports it as malformedUnicode.
var errMalformed = errors.New("malformed \\uxxxx escape")

// malformedUnicode is Java's message, followed by what to do.
const malformedUnicode = "Malformed \\uxxxx encoding. Write a backslash-u escape as exactly four hex digits, e.g. \\u00e9, or escape the backslash as \\\\"

// ParseFile reads path and parses it with Parse.
func ParseFile(path string) (*Properties, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("properties: %w", err)
	}
	return Parse(path, data)
}

// Parse reads data the way java.util.Properties.load(InputStream) does and
// records, for each key, name and the line on which its logical line starts.
//
// The rules, as in Java: bytes are ISO-8859-1 (so non-ASCII text must be written
// as \uXXXX escapes, exactly as for the JVM application); lines end with \n, \r or
// \r\n; leading blanks (space, tab, form feed) are skipped; a line whose first
// non-blank character is # or ! is a comment; a line ending in an odd number of
// backslashes continues on the next line, whose leading blanks are dropped; the
// key ends at the first unescaped '=', ':' or blank, and blanks plus at most one
// '=' or ':' separate it from the value; a line that is still empty after a
// continuation (a line holding only a backslash) can still become a comment; \t \n \r \f and \uXXXX are escapes, and a
// backslash before any other character stands for that character; a later
// duplicate key replaces an earlier one. The only error is a malformed \uXXXX
// escape, which Java also refuses.
func Parse(name string, data []byte) (*Properties, error) {
	p := New()
	lr := lineReader{data: data}
	for {
		line, lineNo, ok := lr.next()
		if !ok {
			break
		}
		key, value, err := splitKeyValue(line)
		if err != nil {
			return nil, &SyntaxError{Pos: Pos{File: name, Line: lineNo}, Msg: malformedUnicode}
		}
		p.Set(Entry{Key: key, Value: value, Pos: Pos{File: name, Line: lineNo}})
	}
	return p, nil
}

// lineReader yields logical lines, as runes decoded from ISO-8859-1, with the
// number of the natural line each starts on. It is the state machine of
// java.util.Properties.LineReader: in particular, '#' and '!' start a comment
// whenever the logical line is still empty (also right after a continuation of
// a line that held only the backslash), and an empty line after such a
// continuation does not end the logical line.
type lineReader struct {
	data   []byte
	off    int
	line   int // 1-based number of the natural line being read
	skipLF bool
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\f' }

// next returns the next logical line, or false at the end of the input.
func (r *lineReader) next() ([]rune, int, bool) {
	if r.line == 0 {
		r.line = 1
	}
	var buf []rune
	start := 0
	skipWhiteSpace := true
	appendedLineBegin := false
	backslash := false
	for {
		if r.off >= len(r.data) {
			if len(buf) == 0 {
				return nil, 0, false
			}
			if backslash {
				buf = buf[:len(buf)-1]
			}
			return buf, start, true
		}
		c := r.data[r.off]
		r.off++
		if r.skipLF {
			r.skipLF = false
			if c == '\n' {
				continue
			}
		}
		if skipWhiteSpace {
			if isBlank(c) {
				continue
			}
			if !appendedLineBegin && (c == '\r' || c == '\n') {
				r.newLine(c)
				continue
			}
			skipWhiteSpace = false
			appendedLineBegin = false
		}
		if len(buf) == 0 && (c == '#' || c == '!') {
			// A comment: consume the rest of the natural line.
			for r.off < len(r.data) && r.data[r.off] != '\n' && r.data[r.off] != '\r' {
				r.off++
			}
			if r.off < len(r.data) {
				r.newLine(r.data[r.off])
				r.off++
			}
			skipWhiteSpace = true
			continue
		}
		if c != '\n' && c != '\r' {
			if len(buf) == 0 {
				start = r.line
			}
			buf = append(buf, rune(c))
			backslash = c == '\\' && !backslash
			continue
		}
		// End of a natural line.
		r.newLine(c)
		if len(buf) == 0 {
			skipWhiteSpace = true
			continue
		}
		if r.off >= len(r.data) {
			if backslash {
				buf = buf[:len(buf)-1]
			}
			return buf, start, true
		}
		if !backslash {
			return buf, start, true
		}
		// Continuation: drop the backslash, skip the next line's leading blanks.
		buf = buf[:len(buf)-1]
		skipWhiteSpace = true
		appendedLineBegin = true
		backslash = false
	}
}

// newLine counts a line terminator c just read, arranging for the \n of a
// \r\n pair to be skipped.
func (r *lineReader) newLine(c byte) {
	r.line++
	if c == '\r' {
		r.skipLF = true
	}
}

func isBlankRune(c rune) bool { return c == ' ' || c == '\t' || c == '\f' }

func splitKeyValue(line []rune) (string, string, error) {
	keyLen := 0
	valueStart := len(line)
	hasSep := false
	backslash := false
	for keyLen < len(line) {
		c := line[keyLen]
		if (c == '=' || c == ':') && !backslash {
			valueStart = keyLen + 1
			hasSep = true
			break
		} else if isBlankRune(c) && !backslash {
			valueStart = keyLen + 1
			break
		}
		if c == '\\' {
			backslash = !backslash
		} else {
			backslash = false
		}
		keyLen++
	}
	for valueStart < len(line) {
		c := line[valueStart]
		if !isBlankRune(c) {
			if !hasSep && (c == '=' || c == ':') {
				hasSep = true
			} else {
				break
			}
		}
		valueStart++
	}
	key, err := unescape(line[:keyLen])
	if err != nil {
		return "", "", err
	}
	value, err := unescape(line[valueStart:])
	if err != nil {
		return "", "", err
	}
	return key, value, nil
}

// unescape applies Java's loadConvert to s, producing UTF-8. UTF-16 surrogate
// pairs written as two \u escapes become one code point; a lone surrogate
// becomes U+FFFD, as Java's String-to-UTF-8 encoding would write it.
func unescape(s []rune) (string, error) {
	var units []uint16
	flushRune := func(r rune) {
		if r >= 0x10000 {
			a, b := utf16.EncodeRune(r)
			units = append(units, uint16(a), uint16(b))
			return
		}
		units = append(units, uint16(r))
	}
	for i := 0; i < len(s); {
		c := s[i]
		i++
		if c != '\\' {
			flushRune(c)
			continue
		}
		if i >= len(s) {
			// A lone trailing backslash cannot survive Java's line reader;
			// drop it.
			break
		}
		c = s[i]
		i++
		switch c {
		case 'u':
			if i+4 > len(s) {
				return "", errMalformed
			}
			var v uint16
			for j := 0; j < 4; j++ {
				d := hexVal(s[i+j])
				if d < 0 {
					return "", errMalformed
				}
				v = v<<4 | uint16(d)
			}
			i += 4
			units = append(units, v)
		case 't':
			units = append(units, '\t')
		case 'r':
			units = append(units, '\r')
		case 'n':
			units = append(units, '\n')
		case 'f':
			units = append(units, '\f')
		default:
			flushRune(c)
		}
	}
	return string(utf16.Decode(units)), nil
}

func hexVal(c rune) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
