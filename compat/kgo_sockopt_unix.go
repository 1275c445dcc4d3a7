//go:build unix

package compat

import "syscall"

// setSocketBuffers sets SO_RCVBUF and SO_SNDBUF (0 leaves one alone).
func setSocketBuffers(c syscall.RawConn, rcv, snd int) error {
	var err error
	ctlErr := c.Control(func(fd uintptr) {
		if rcv > 0 {
			err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, rcv)
		}
		if snd > 0 && err == nil {
			err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_SNDBUF, snd)
		}
	})
	if ctlErr != nil {
		return ctlErr
	}
	return err
}
