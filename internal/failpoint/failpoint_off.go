//go:build !failpoint

package failpoint

// Enabled reports whether failpoints are compiled in: false without the
// failpoint build tag.
const Enabled = false

// Hit does nothing: failpoints are not compiled in. The call inlines to
// nothing, so the points cost nothing in a production build.
func Hit(string) error { return nil }

// Arm fails with ErrNotCompiled: a test that arms a point must be built with
// -tags failpoint, and fails loudly rather than running without its faults.
func Arm(string) error { return ErrNotCompiled }
