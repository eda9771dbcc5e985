package cmdutil

import (
	"encoding/json"
	"fmt"
	"io"
)

// PrintJSON writes v as indented JSON, the --json output of the commands.
func PrintJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// CountOf says n things in English: "1 job", "2 jobs".
func CountOf(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
