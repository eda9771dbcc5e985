package main

import (
	"os"

	benchlaunch "github.com/etalab-ia/albert-code/bench/internal/launch"
)

// measurement is what the launcher reports about its child (see package launch
// for why each contestant is started by this binary in -launch mode).
type measurement = benchlaunch.Measurement

// launch runs argv with the launcher's stdio and environment and reports it.
func launch(argv []string) error { return benchlaunch.Child(argv, os.Stdin) }
