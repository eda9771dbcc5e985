package cron

import (
	"fmt"
	"strconv"

	"github.com/etalab-ia/albert-code/internal/serve/problems"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// at names the part of a job file at fault as its problems say it: a job (its
// quoted name, or its place "jobs[2]" when it has none) and a key; either may be
// empty, both for the file's root as a whole.
func at(job, key string) string {
	switch {
	case job != "" && key != "":
		return fmt.Sprintf("job %s: key %q", job, key)
	case job != "":
		return "job " + job
	case key != "":
		return fmt.Sprintf("key %q", key)
	}
	return ""
}

// CheckWorkspaces checks that the workspace of each enabled job exists under root:
// the enabled jobs whose workspace does, and a problem for each other one, said
// as written in file.
func CheckWorkspaces(file string, jobs []*Job, root *workspace.Root) ([]*Job, problems.List) {
	var ok []*Job
	var ps problems.List
	for _, j := range jobs {
		if !j.Enabled {
			continue
		}
		if _, err := root.Workspace(j.Workspace, false); err != nil {
			ps = append(ps, problems.Problem{Where: file, Line: j.Line, Key: at(strconv.Quote(j.Name), "workspace"), Message: err.Error()})
			continue
		}
		ok = append(ok, j)
	}
	return ok, ps
}
