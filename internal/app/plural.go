package app

import "fmt"

// countOf says n things in English: "1 job", "2 jobs".
func countOf(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
