//go:build !unix

package compat

import "syscall"

// setSocketBuffers leaves the buffers to the operating system where Go has
// no portable socket option call.
func setSocketBuffers(syscall.RawConn, int, int) error { return nil }
