package cron

import (
	"fmt"
	"strings"
)

// Problem is one reason a job file is refused, naming the job and the key.
type Problem struct {
	File string
	Line int
	// Job is the job's name, or its position ("jobs[2]") when it has none; empty
	// for the file's root.
	Job     string
	Key     string
	Message string
}

func (p Problem) Error() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	b.WriteString(": ")
	if p.Job != "" {
		fmt.Fprintf(&b, "job %s: ", p.Job)
	}
	if p.Key != "" {
		fmt.Fprintf(&b, "key %q: ", p.Key)
	}
	b.WriteString(p.Message)
	return b.String()
}

// Problems is every problem of a file, reported at once.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}
