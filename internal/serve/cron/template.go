package cron

import (
	"strings"
	"time"
)

// datetimeLayout renders {system_datetime} with its real zone: the original
// printed local time labelled "UTC".
const datetimeLayout = "2006-01-02 15:04:05 MST"

// expand fills the placeholders of text for one run. Other braces are left
// alone: an instruction may hold JSON or code.
func expand(text, job string, fired time.Time, workspace string) string {
	return strings.NewReplacer(
		"{job_name}", job,
		"{system_datetime}", fired.Format(datetimeLayout),
		"{workspace}", workspace,
	).Replace(text)
}
