package state

import (
	"errors"
	"fmt"
)

// Sentinel errors. Check them with errors.Is: the typed errors below wrap
// them.
var (
	// ErrClosed is returned by every operation on a closed store or iterator.
	ErrClosed = errors.New("state: store closed")
	// ErrCorrupted marks a store whose files are missing or unreadable. The
	// engine wipes that one store and restores it from its changelog.
	ErrCorrupted = errors.New("state: store corrupted")
	// ErrVolume marks a store whose directory cannot be used as it is: its
	// volume is full or read-only, or the process may not write there.
	// Nothing is wrong with the store's files, which are kept.
	ErrVolume = errors.New("state: store directory unusable")
	// ErrLocked is returned when another process holds the state directory.
	ErrLocked = errors.New("state: state directory locked")
	// ErrInvalidArgument is returned for a malformed key, range or record.
	ErrInvalidArgument = errors.New("state: invalid argument")
)

// CorruptionError reports an unreadable or missing store file. It matches
// ErrCorrupted under errors.Is.
type CorruptionError struct {
	Store string // store name
	Path  string // store directory
	Err   error  // what RocksDB or the file system said
}

func (e *CorruptionError) Error() string {
	return fmt.Sprintf("state: store %q at %s is corrupted: %v (wipe the store directory and restore it from the changelog)", e.Store, e.Path, e.Err)
}

// Unwrap returns the cause.
func (e *CorruptionError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrCorrupted) true.
func (e *CorruptionError) Is(target error) bool { return target == ErrCorrupted }

// VolumeError reports a store whose directory cannot be used as it is: a
// full or read-only volume, a directory the process may not write, too
// many open files. It matches ErrVolume under errors.Is, never
// ErrCorrupted: the store's files are kept, never wiped for it.
type VolumeError struct {
	Store string // store name
	Path  string // store directory
	Op    string // what failed: open, commit, ...
	Err   error  // what RocksDB or the file system said
}

func (e *VolumeError) Error() string {
	return fmt.Sprintf("state: %s on store %q at %s: %v (the store's directory cannot be used as it is: free space on the volume "+
		"that holds state.dir, or make the directory writable by this process; the store's files are kept, and once it opens it reads "+
		"what it lacks from its changelog)", e.Op, e.Store, e.Path, e.Err)
}

// Unwrap returns the cause.
func (e *VolumeError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrVolume) true.
func (e *VolumeError) Is(target error) bool { return target == ErrVolume }

// StoreError is an operation failure on a named store.
type StoreError struct {
	Store string
	Op    string
	Err   error
}

func (e *StoreError) Error() string {
	return fmt.Sprintf("state: %s on store %q: %v", e.Op, e.Store, e.Err)
}

// Unwrap returns the cause.
func (e *StoreError) Unwrap() error { return e.Err }

func storeErr(store, op string, err error) error {
	if err == nil {
		return nil
	}
	var ce *CorruptionError
	var se *StoreError
	var ve *VolumeError
	if errors.As(err, &ce) || errors.As(err, &se) || errors.As(err, &ve) {
		return err
	}
	return &StoreError{Store: store, Op: op, Err: err}
}
