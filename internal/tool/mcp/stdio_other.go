//go:build !linux

package mcp

import "syscall"

// dieWithParent has no equivalent outside Linux: a server there relies on reading
// EOF on stdin when albert-code exits.
func dieWithParent(*syscall.SysProcAttr) {}
