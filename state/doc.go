// Package state holds StoatFlow's state stores: key-value, timestamped,
// window, session and versioned, on RocksDB and in memory. Every store is
// transactional: writes wait in an overlay that the owner's reads see and reach
// the base store only on Commit, together with the changelog offsets.
package state
