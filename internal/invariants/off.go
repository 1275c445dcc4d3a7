//go:build !invariants

package invariants

// Enabled reports whether assertions are compiled in: false without the
// invariants build tag, so every `if invariants.Enabled` block is dead code.
const Enabled = false
