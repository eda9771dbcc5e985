package mcp

import "syscall"

// dieWithParent asks Linux to SIGTERM the server if albert-code dies without closing
// it (a crash, a SIGKILL, a face that exits without Env.Close): no orphan servers.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGTERM }
