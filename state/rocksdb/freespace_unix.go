//go:build linux || darwin

package rocksdb

import "syscall"

// freeBytes is the space the volume holding path has free for this
// process; ok is false when the file system cannot say.
func freeBytes(path string) (free uint64, ok bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return 0, false
	}
	return uint64(st.Bavail) * uint64(st.Bsize), true
}
