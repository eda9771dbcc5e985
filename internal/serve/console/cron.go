package console

import (
	"errors"
	"net/http"
	"os"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/cron"
)

// Bounds of the cron pages. Judgement: a job firing every minute makes 1440
// lines a day; the newest 100 cover more than an hour of it and any daily job's
// three months, and a log is shown up to 256 KiB (the run folder keeps it whole).
const (
	cronHistory = 100
	cronLogCap  = 256 << 10
)

func (c *Console) cronPage(w http.ResponseWriter, r *http.Request) {
	if c.opts.Cron == nil {
		c.render(w, r, http.StatusOK, "cron", map[string]any{"Off": true})
		return
	}
	c.render(w, r, http.StatusOK, "cron", map[string]any{"Jobs": c.opts.Cron.Jobs(), "Now": c.opts.Now()})
}

func (c *Console) cronJobPage(w http.ResponseWriter, r *http.Request) {
	job := r.PathValue("job")
	if c.opts.Cron == nil {
		c.errorPage(w, r, http.StatusNotFound, "Cron is off", "This server runs no cron jobs, so there is no job "+job+".")
		return
	}
	hist, err := c.opts.Cron.History(job, cronHistory)
	if errors.Is(err, cron.ErrNoSuchJob) {
		c.errorPage(w, r, http.StatusNotFound, "No such cron job", "No scheduled job is named "+job+": the Cron page lists them.")
		return
	}
	if err != nil {
		c.errorPage(w, r, http.StatusInternalServerError, "The job's history could not be read", err.Error())
		return
	}
	var state cron.JobState
	for _, j := range c.opts.Cron.Jobs() {
		if j.Job.Name == job {
			state = j
		}
	}
	c.render(w, r, http.StatusOK, "cronjob", map[string]any{"Job": state, "History": hist, "Max": cronHistory})
}

func (c *Console) cronLogPage(w http.ResponseWriter, r *http.Request) {
	job := r.PathValue("job")
	at, err := time.Parse(time.RFC3339Nano, r.URL.Query().Get("at"))
	if err != nil {
		c.errorPage(w, r, http.StatusBadRequest, "Bad fire time", "The query parameter at must be the run's fire time in RFC 3339 (the job's page links to each run's logs).")
		return
	}
	if c.opts.Cron == nil {
		c.errorPage(w, r, http.StatusNotFound, "Cron is off", "This server runs no cron jobs.")
		return
	}
	logs, err := c.opts.Cron.RunLog(job, at, cronLogCap)
	switch {
	case errors.Is(err, cron.ErrNoSuchJob), errors.Is(err, os.ErrNotExist):
		c.errorPage(w, r, http.StatusNotFound, "No such run", "Job "+job+" has no run folder fired at "+at.UTC().Format(time.RFC3339)+".")
		return
	case err != nil:
		c.errorPage(w, r, http.StatusInternalServerError, "The run's logs could not be read", err.Error())
		return
	}
	c.render(w, r, http.StatusOK, "cronlog", map[string]any{"Job": job, "At": at, "Logs": logs, "Cap": cronLogCap >> 10})
}
