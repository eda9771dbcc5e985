//go:build windows

package store

// windowsOnly is outside the file universe on linux: the type checker never sees it.
func windowsOnly() Store { return New() }
