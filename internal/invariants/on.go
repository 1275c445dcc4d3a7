//go:build invariants

package invariants

// Enabled reports whether assertions are compiled in: true under the
// invariants build tag.
const Enabled = true
