package rocksdb

import (
	"fmt"
	"math"

	"github.com/stoatflow/stoatflow/internal/storeformat"
	"github.com/stoatflow/stoatflow/state"
)

// Window and session subjects for the crash test: the keys of each commit
// spread over several segments (column families), so a torn flush across
// column families would show.

type windowCrash struct{ state.WindowStore }

type sessionCrash struct{ state.SessionStore }

func init() {
	crashKinds["window"] = func(dir string, small bool) (crashSubject, error) {
		o := state.WindowOptions{Name: "crash", RetentionMs: 3_600_000, SegmentIntervalMs: 60_000, Timestamped: true}
		var ro Options
		if small {
			ro.WriteBufferBytes = 16 << 10
		}
		s, err := OpenWindow(dir, o, ro)
		if err != nil {
			return nil, err
		}
		return windowCrash{s}, nil
	}
	crashKinds["session"] = func(dir string, small bool) (crashSubject, error) {
		o := state.SessionOptions{Name: "crash", RetentionMs: 3_600_000, SegmentIntervalMs: 60_000}
		var ro Options
		if small {
			ro.WriteBufferBytes = 16 << 10
		}
		s, err := OpenSession(dir, o, ro)
		if err != nil {
			return nil, err
		}
		return sessionCrash{s}, nil
	}
}

func (c windowCrash) write(n int64) error {
	for i := 0; i < crashKeys; i++ {
		if err := c.Put([]byte(fmt.Sprintf("k%03d", i)), storeformat.AppendTimestamped(nil, n, crashValue(n)), int64(i)*4_000); err != nil {
			return err
		}
	}
	for j := 0; j < crashDeletes; j++ {
		var v []byte
		if !crashDeleted(n, j) {
			v = storeformat.AppendTimestamped(nil, n, crashValue(n))
		}
		if err := c.Put([]byte(fmt.Sprintf("d%02d", j)), v, int64(j)*15_000); err != nil {
			return err
		}
	}
	return nil
}

func (c windowCrash) state() (int64, error) {
	it, err := c.ReadOnly(state.ReadCommitted).FetchAll(math.MinInt64/2, math.MaxInt64/2, false)
	if err != nil {
		return 0, err
	}
	defer it.Close()
	got := map[string]int64{}
	for it.Next() {
		_, v, err := storeformat.SplitTimestamped(it.Value())
		if err != nil {
			return 0, err
		}
		n, err := parseCrashValue(v)
		if err != nil {
			return 0, err
		}
		got[fmt.Sprintf("%s@%d", it.Key(), it.WindowStart())] = n
	}
	if err := it.Err(); err != nil {
		return 0, err
	}
	return checkCrashState(got,
		func(i int) string { return fmt.Sprintf("k%03d@%d", i, int64(i)*4_000) },
		func(j int) string { return fmt.Sprintf("d%02d@%d", j, int64(j)*15_000) })
}

func (c sessionCrash) write(n int64) error {
	for i := 0; i < crashKeys; i++ {
		end := int64(i) * 4_000
		if err := c.Put([]byte(fmt.Sprintf("k%03d", i)), end-100, end, crashValue(n)); err != nil {
			return err
		}
	}
	for j := 0; j < crashDeletes; j++ {
		end := int64(j) * 15_000
		var v []byte
		if !crashDeleted(n, j) {
			v = crashValue(n)
		}
		if err := c.Put([]byte(fmt.Sprintf("d%02d", j)), end-100, end, v); err != nil {
			return err
		}
	}
	return nil
}

func (c sessionCrash) state() (int64, error) {
	it, err := c.ReadOnly(state.ReadCommitted).FindSessionsRange(nil, nil, math.MinInt64/2, math.MaxInt64/2, false)
	if err != nil {
		return 0, err
	}
	defer it.Close()
	got := map[string]int64{}
	for it.Next() {
		n, err := parseCrashValue(it.Value())
		if err != nil {
			return 0, err
		}
		got[fmt.Sprintf("%s@%d", it.Key(), it.End())] = n
	}
	if err := it.Err(); err != nil {
		return 0, err
	}
	return checkCrashState(got,
		func(i int) string { return fmt.Sprintf("k%03d@%d", i, int64(i)*4_000) },
		func(j int) string { return fmt.Sprintf("d%02d@%d", j, int64(j)*15_000) })
}

type versionedCrash struct{ state.VersionedKeyValueStore }

func init() {
	crashKinds["versioned"] = func(dir string, small bool) (crashSubject, error) {
		o := state.VersionedOptions{Name: "crash", HistoryRetentionMs: 3_600_000, SegmentIntervalMs: 60_000}
		var ro Options
		if small {
			ro.WriteBufferBytes = 16 << 10
		}
		s, err := OpenVersioned(dir, o, ro)
		if err != nil {
			return nil, err
		}
		return versionedCrash{s}, nil
	}
}

func (c versionedCrash) write(n int64) error {
	for i := 0; i < crashKeys; i++ {
		if _, err := c.Put([]byte(fmt.Sprintf("k%03d", i)), crashValue(n), n); err != nil {
			return err
		}
	}
	for j := 0; j < crashDeletes; j++ {
		var v []byte
		if !crashDeleted(n, j) {
			v = crashValue(n)
		}
		if _, err := c.Put([]byte(fmt.Sprintf("d%02d", j)), v, n); err != nil {
			return err
		}
	}
	return nil
}

func (c versionedCrash) state() (int64, error) {
	rc := c.ReadOnly(state.ReadCommitted)
	got := map[string]int64{}
	add := func(k string) error {
		r, err := rc.Get([]byte(k))
		if err != nil || r == nil {
			return err
		}
		n, err := parseCrashValue(r.Value)
		if err != nil {
			return err
		}
		if r.Timestamp != n {
			return fmt.Errorf("torn: %s valid from %d holds commit %d", k, r.Timestamp, n)
		}
		got[k] = n
		return nil
	}
	for i := 0; i < crashKeys; i++ {
		if err := add(fmt.Sprintf("k%03d", i)); err != nil {
			return 0, err
		}
	}
	for j := 0; j < crashDeletes; j++ {
		if err := add(fmt.Sprintf("d%02d", j)); err != nil {
			return 0, err
		}
	}
	return checkCrashState(got, func(i int) string { return fmt.Sprintf("k%03d", i) }, func(j int) string { return fmt.Sprintf("d%02d", j) })
}

// windowExpiryCrash advances stream time with every commit so that most
// commits expire a segment: commit n writes crashKeys windows at n*1000 ms;
// with 5000 ms retention and 2000 ms segments the live windows after commit
// n are those of commits n-4..n, and dropping segments (flush, then drop
// column family) happens under the kills.
type windowExpiryCrash struct{ state.WindowStore }

func init() {
	crashKinds["window-expiry"] = func(dir string, small bool) (crashSubject, error) {
		o := state.WindowOptions{Name: "crash", RetentionMs: 5_000, SegmentIntervalMs: 2_000}
		var ro Options
		if small {
			ro.WriteBufferBytes = 64 << 10
		}
		s, err := OpenWindow(dir, o, ro)
		if err != nil {
			return nil, err
		}
		return windowExpiryCrash{s}, nil
	}
}

func (c windowExpiryCrash) write(n int64) error {
	for i := 0; i < crashKeys; i++ {
		if err := c.Put([]byte(fmt.Sprintf("k%03d", i)), crashValue(n), n*1000); err != nil {
			return err
		}
	}
	return nil
}

func (c windowExpiryCrash) state() (int64, error) {
	it, err := c.ReadOnly(state.ReadCommitted).FetchAll(0, math.MaxInt64/2, false)
	if err != nil {
		return 0, err
	}
	defer it.Close()
	perCommit := map[int64]int{}
	n := int64(-1)
	for it.Next() {
		m, err := parseCrashValue(it.Value())
		if err != nil {
			return 0, err
		}
		if it.WindowStart() != m*1000 {
			return 0, fmt.Errorf("torn: window %d holds commit %d", it.WindowStart(), m)
		}
		perCommit[m]++
		n = max(n, m)
	}
	if err := it.Err(); err != nil {
		return 0, err
	}
	if n < 0 {
		return -1, nil
	}
	for m := max(1, n-4); m <= n; m++ {
		if perCommit[m] != crashKeys {
			return 0, fmt.Errorf("torn: commit %d has %d of %d windows at commit %d", m, perCommit[m], crashKeys, n)
		}
		delete(perCommit, m)
	}
	if len(perCommit) > 0 {
		return 0, fmt.Errorf("torn: expired windows visible at commit %d: %v", n, perCommit)
	}
	return n, nil
}
