// Package txn owns the commit protocol: barrier epochs per stream thread, the
// exactly_once_v2 transactional producer, and the uncommitted-bytes budget that
// triggers early commits.
package txn
