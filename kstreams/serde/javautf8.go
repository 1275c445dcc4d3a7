package serde

import "unicode/utf8"

// Java's UTF-8 decoding with malformed input replaced, as Kafka's
// StringDeserializer gets it from new String(bytes, UTF_8): every malformed
// sequence becomes one U+FFFD. Where one malformed sequence ends is Java's
// rule, which is neither of Go's: utf8.DecodeRune (and range over a string)
// reports each byte of a malformed sequence on its own, and
// strings.ToValidUTF8 folds a whole run of bad bytes into one replacement.
//
// Java ends a malformed sequence as Unicode's "maximal subpart" practice
// does: the lead byte and the continuation bytes after it that could still
// begin a well-formed sequence, at least one byte. So E2 82 41 is U+FFFD "A"
// (Go: two U+FFFD), E2 82 at the end is one U+FFFD, E0 80 AF is three (E0
// takes only A0..BF next) and F0 8F two. The one departure: after ED, Java
// takes A0..BF as a second byte and refuses the surrogate only once it is
// decoded, so an encoded surrogate ED A0..BF 80..BF is one malformed sequence
// (Go and the maximal subparts: three) and ED A0 cut short one. Each of these
// is pinned against the JVM in testdata/jvm-serdes.txt.
//
// Valid UTF-8 decodes to itself, so the callers check utf8.Valid first and
// take the fast path (the check, then one copy into the string) when it holds.

// replacement is U+FFFD in UTF-8.
const replacement = "\uFFFD"

// javaDecodeUTF8 returns the UTF-8 bytes of the Java String that
// new String(b, UTF_8) makes of b: b itself when it is valid UTF-8.
func javaDecodeUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string(javaReplaceMalformed(b))
}

// javaReplaceMalformed returns b with every malformed sequence, as Java
// delimits them, replaced by U+FFFD.
func javaReplaceMalformed(b []byte) []byte {
	// Room for a few replacements (each three bytes for at least one) before
	// append has to grow the buffer.
	dst := make([]byte, 0, len(b)+len(b)/4+8)
	start := 0 // the well-formed run not yet copied
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		size, ok := javaSequence(b[i:])
		if !ok {
			dst = append(append(dst, b[start:i]...), replacement...)
			start = i + size
		}
		i += size
	}
	return append(dst, b[start:]...)
}

func isContinuation(c byte) bool { return c&0xc0 == 0x80 }

// javaSequence returns the length of the sequence at the start of b (len(b) >
// 0) and whether it is well formed. A malformed sequence is replaced by one
// U+FFFD and decoding resumes after it.
func javaSequence(b []byte) (int, bool) {
	b1 := b[0]
	rem := len(b)
	switch {
	case b1 < 0x80:
		return 1, true

	case b1 >= 0xc2 && b1 <= 0xdf:
		if rem < 2 {
			return rem, false // cut short by the end of the input
		}
		if !isContinuation(b[1]) {
			return 1, false
		}
		return 2, true

	case b1 >= 0xe0 && b1 <= 0xef:
		// Java checks only the overlong E0 form against the second byte;
		// the surrogate range of ED is found once three bytes are decoded.
		bad2 := func(b2 byte) bool { return b1 == 0xe0 && b2&0xe0 == 0x80 || !isContinuation(b2) }
		if rem < 3 {
			if rem == 2 && bad2(b[1]) {
				return 1, false
			}
			return rem, false
		}
		switch {
		case bad2(b[1]):
			return 1, false
		case !isContinuation(b[2]):
			return 2, false
		case b1 == 0xed && b[1] >= 0xa0:
			return 3, false // a UTF-16 surrogate, one malformed sequence
		}
		return 3, true

	case b1 >= 0xf0 && b1 <= 0xf7:
		// F5..F7 lead nothing Java accepts: the lead byte alone is malformed.
		bad2 := func(b2 byte) bool {
			return b1 > 0xf4 ||
				b1 == 0xf0 && (b2 < 0x90 || b2 > 0xbf) ||
				b1 == 0xf4 && b2&0xf0 != 0x80 ||
				!isContinuation(b2)
		}
		if rem < 4 {
			switch {
			case b1 > 0xf4 || rem > 1 && bad2(b[1]):
				return 1, false
			case rem > 2 && !isContinuation(b[2]):
				return 2, false
			}
			return rem, false
		}
		switch {
		case bad2(b[1]):
			return 1, false
		case !isContinuation(b[2]):
			return 2, false
		case !isContinuation(b[3]):
			return 3, false
		}
		return 4, true
	}
	// A continuation byte, C0, C1 or F8..FF where a sequence should start.
	return 1, false
}

// javaUTF16 returns the UTF-16 code units of the Java String that
// new String(b, UTF_8) makes of b.
func javaUTF16(b []byte) []uint16 {
	s := javaDecodeUTF8(b)
	out := make([]uint16, 0, len(s))
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			out = append(out, uint16(0xd800+(r>>10)), uint16(0xdc00+(r&0x3ff)))
			continue
		}
		out = append(out, uint16(r))
	}
	return out
}
