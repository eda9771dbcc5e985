// Command albert-code is a coding agent for the Albert API and any OpenAI-compatible
// model server. All of its logic lives in internal/app.
package main

import (
	"os"

	"github.com/etalab-ia/albert-code/internal/app"
)

func main() {
	os.Exit(app.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
