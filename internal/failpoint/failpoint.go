// Package failpoint holds named points in the commit and restore paths where
// a test can make the process die or fail, to prove that a crash at that
// moment breaks no invariant.
//
// Failpoints exist only in binaries built with the `failpoint` build tag
// (`go test -tags failpoint`), which the crash suites use. Without it, Hit is
// an empty function the compiler inlines away, Enabled is false and Arm
// fails: a production build carries no failpoint code.
//
// Under the tag, points are armed only through the environment variable
// STOATFLOW_FAILPOINTS, read once at start-up; when it is unset, Hit is a
// single load of a false bool. The variable holds comma-separated entries
// `name=action[@n]`:
//
//	txn.after-commit=kill          SIGKILL the process at the first hit
//	txn.between-stores=kill@3      SIGKILL at the third hit
//	restore.mid=error@2            Hit returns ErrInjected at the second hit
//
// A name `*` arms every point, which suits random-moment kill tests:
// `*=kill@17` kills at the 17th hit of any point.
package failpoint

import "errors"

// The named points. Each sits where a crash tests one protection.
const (
	AfterChangelogFlush = "txn.after-changelog-flush" // changelog and output records are on the broker, uncommitted
	AfterSendOffsets    = "txn.after-send-offsets"    // offsets added to the transaction, not committed
	AfterCommit         = "txn.after-commit"          // Kafka transaction committed, no store committed yet
	BetweenStores       = "txn.between-stores"        // some stores committed, others not
	MidRestore          = "restore.mid"               // after one restore batch reached a store
	StandbyMid          = "standby.mid"               // after one standby batch reached a store
	StandbyPromote      = "standby.promote"           // a standby's stores handed to its active task, before the tail's restore
	StandbyDemote       = "standby.demote"            // an active task's stores handed to its standby, after the revocation's commit
	RebalanceCallback   = "rebalance.callback"        // inside a partition assignment or revocation (a streams group's reconciliation: before its revocation, and between the revocation and its acknowledgement)
)

// ErrInjected is what an `error` action returns.
var ErrInjected = errors.New("failpoint: injected failure")

// ErrNotCompiled is what Arm returns in a binary built without the
// failpoint tag.
var ErrNotCompiled = errors.New("failpoint: not compiled in; build with -tags failpoint")

// EnvVar names the environment variable that arms points.
const EnvVar = "STOATFLOW_FAILPOINTS"
