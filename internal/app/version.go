package app

import (
	"runtime/debug"
)

// version is set at link time (-ldflags "-X .../internal/app.version=v1.2.3"); a plain
// `go install` falls back to the module version Go records in the binary.
var version = ""

// Version reports the program's version.
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
