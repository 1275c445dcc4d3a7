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
	if errors.As(err, &ce) || errors.As(err, &se) {
		return err
	}
	return &StoreError{Store: store, Op: op, Err: err}
}
