package serde

import (
	"encoding/hex"
	"unicode"
)

// javaUUID parses s as Java 17's UUID.fromString does and returns the UUID's
// 16 bytes. Kafka's UUIDDeserializer decodes the bytes as UTF-8 (malformed
// sequences replaced) and hands the string to UUID.fromString, which is more
// lenient than the canonical form: any five '-'-separated groups of hex
// digits, each with an optional '+', as long as the string has at most 36
// UTF-16 code units and each group fits a Java long; the groups are then
// truncated to 32, 16, 16, 16 and 48 bits. A hex digit is what
// Character.digit(ch, 16) accepts: ASCII and fullwidth 0-9, A-F, a-f and the
// decimal digits of every script.
func javaUUID(units []uint16) ([16]byte, bool) {
	var u [16]byte
	if len(units) > 36 {
		return u, false
	}
	var dashes [4]int
	n := 0
	for i, c := range units {
		if c == '-' {
			if n == 4 {
				return u, false
			}
			dashes[n] = i
			n++
		}
	}
	if n != 4 {
		return u, false
	}
	bounds := [6]int{-1, dashes[0], dashes[1], dashes[2], dashes[3], len(units)}
	var groups [5]uint64
	for g := range groups {
		v, ok := javaParseHexLong(units[bounds[g]+1 : bounds[g+1]])
		if !ok {
			return u, false
		}
		groups[g] = v
	}
	msb := (groups[0]&0xffffffff)<<32 | (groups[1]&0xffff)<<16 | groups[2]&0xffff
	lsb := (groups[3]&0xffff)<<48 | groups[4]&0xffffffffffff
	for i := 0; i < 8; i++ {
		u[i] = byte(msb >> (56 - 8*i))
		u[8+i] = byte(lsb >> (56 - 8*i))
	}
	return u, true
}

// javaParseHexLong is Long.parseLong(s, 16) for a group without '-' (the
// dashes separate the groups): an optional '+', then at least one digit, at
// most Long.MAX_VALUE.
func javaParseHexLong(s []uint16) (uint64, bool) {
	if len(s) > 0 && s[0] == '+' {
		s = s[1:]
	}
	if len(s) == 0 {
		return 0, false
	}
	var v uint64
	for _, c := range s {
		d := javaHexDigit(c)
		if d < 0 || v > (1<<63-1-uint64(d))/16 {
			return 0, false
		}
		v = v*16 + uint64(d)
	}
	return v, true
}

// javaHexDigit is Character.digit(c, 16) for one UTF-16 code unit, or -1.
func javaHexDigit(c uint16) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	case c >= 0xff21 && c <= 0xff26: // fullwidth A-F
		return int(c-0xff21) + 10
	case c >= 0xff41 && c <= 0xff46: // fullwidth a-f
		return int(c-0xff41) + 10
	case c < 0x80 || c >= 0xd800 && c <= 0xdfff:
		return -1
	}
	return decimalDigit(rune(c))
}

// decimalDigit returns the value of a Unicode decimal digit (category Nd), or
// -1. Nd characters come in runs of ten, zero to nine, so a digit's value is
// its distance from the start of its range in unicode.Nd modulo ten.
func decimalDigit(r rune) int {
	if !unicode.Is(unicode.Nd, r) {
		return -1
	}
	for _, rg := range unicode.Nd.R16 {
		if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) / int(rg.Stride) % 10
		}
	}
	for _, rg := range unicode.Nd.R32 {
		if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) / int(rg.Stride) % 10
		}
	}
	return -1
}

// formatUUID writes u in java.util.UUID.toString()'s form: lower-case hex,
// 8-4-4-4-12.
func formatUUID(u [16]byte) string {
	var buf [36]byte
	hex.Encode(buf[0:8], u[0:4])
	buf[8] = '-'
	hex.Encode(buf[9:13], u[4:6])
	buf[13] = '-'
	hex.Encode(buf[14:18], u[6:8])
	buf[18] = '-'
	hex.Encode(buf[19:23], u[8:10])
	buf[23] = '-'
	hex.Encode(buf[24:36], u[10:16])
	return string(buf[:])
}
