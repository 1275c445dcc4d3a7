package streams

import "testing"

func TestTxnProcessParsesOnlyTheApplicationsTransactionalIDs(t *testing.T) {
	const pid = "5c5b2f8e-8a1d-4c3e-9f7a-0123456789ab"
	for _, c := range []struct {
		app, id string
		ok      bool
	}{
		{"wc", "wc-" + pid + "-1", true},
		{"wc", "wc-" + pid + "-12", true},
		{"wc", "wc-" + pid, false},            // no thread
		{"wc", "wc-" + pid + "-x", false},     // thread not a number
		{"wc", "wc-bar-" + pid + "-1", false}, // application wc-bar's
		{"wc-bar", "wc-bar-" + pid + "-1", true},
		{"wc", "other-" + pid + "-1", false},
		{"wc", "wc-not-a-uuid-1", false},
	} {
		p, ok := txnProcess(c.app, c.id)
		if ok != c.ok || (ok && p.String() != pid) {
			t.Errorf("txnProcess(%q, %q) = %v, %v; want ok %v", c.app, c.id, p, ok, c.ok)
		}
	}
}
