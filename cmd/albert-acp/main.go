// Command albert-acp serves the Agent Client Protocol on stdin/stdout so editors such
// as Zed drive albert-code; it is `albert-code acp` under the name editors expect.
package main

import (
	"os"

	"github.com/etalab-ia/albert-code/internal/app"
)

func main() {
	os.Exit(app.MainACP(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
