package console

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/runstore"
)

// Paging of the runs list. The run store lists at most 1000 runs at once
// (runstore's cap), newest first; a page draws pageSize rows of them, so a
// store of 10,000 runs never puts 10,000 rows in the browser.
const (
	pageSize    = 50
	listedRuns  = 1000
	refreshSecs = 2 // how often the open runs page asks for its table again
)

// runRow is one line of the runs table.
type runRow struct {
	ID, Status, Workspace, Adapter, Model string
	Created                               time.Time
	Duration                              string
	Tokens                                string
	Cost                                  string
}

// request is what the console reads of a run's recorded request.
type request struct {
	Prompt string `json:"prompt"`
	Model  string `json:"model"`
}

func (c *Console) row(r runstore.Run, usage *backend.Usage) runRow {
	var req request
	_ = json.Unmarshal(r.Request, &req)
	row := runRow{ID: r.ID, Status: string(r.Status), Workspace: c.workspaceName(r.Workspace), Adapter: r.Backend,
		Model: req.Model, Created: r.CreatedAt}
	if row.Model == "" {
		row.Model = "default"
	}
	switch {
	case !r.FinishedAt.IsZero() && !r.StartedAt.IsZero():
		row.Duration = r.FinishedAt.Sub(r.StartedAt).Round(100 * time.Millisecond).String()
	case !r.StartedAt.IsZero():
		row.Duration = c.opts.Now().Sub(r.StartedAt).Round(time.Second).String() + "…"
	}
	if usage != nil {
		row.Tokens = fmt.Sprintf("%d in / %d out", usage.InputTokens, usage.OutputTokens)
		if usage.Cost > 0 {
			row.Cost = fmt.Sprintf("%.4f %s", usage.Cost, usage.Currency)
		}
	}
	return row
}

// workspaceName shows a workspace relative to the root it lives in.
func (c *Console) workspaceName(dir string) string {
	if rel, err := filepath.Rel(c.opts.Root.Dir(), dir); err == nil && !filepath.IsAbs(rel) && rel != ".." && (len(rel) < 3 || rel[:3] != "../") {
		return rel
	}
	return dir
}

// usageOf sums a run's attempts.
func usageOf(r runstore.Run) *backend.Usage {
	if len(r.Attempts) == 0 {
		return nil
	}
	var u backend.Usage
	for _, a := range r.Attempts {
		var one backend.Usage
		if json.Unmarshal(a.Usage, &one) == nil {
			u.Add(one)
		}
	}
	return &u
}

// runsData reads one page of the list; the rows' usage comes from their attempts.
func (c *Console) runsData(r *http.Request) (map[string]any, error) {
	runs, err := c.opts.Store.List(r.Context(), runstore.Filter{Limit: listedRuns})
	if err != nil {
		return nil, err
	}
	pages := max(1, (len(runs)+pageSize-1)/pageSize)
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	page = min(max(page, 1), pages)
	counts := map[string]int{}
	for _, run := range runs {
		counts[string(run.Status)]++
	}
	shown := runs[min((page-1)*pageSize, len(runs)):min(page*pageSize, len(runs))]
	rows := make([]runRow, 0, len(shown))
	for _, run := range shown {
		var usage *backend.Usage
		if run.Status.Final() {
			if full, err := c.opts.Store.Get(r.Context(), run.ID); err == nil {
				usage = usageOf(full)
			}
		}
		rows = append(rows, c.row(run, usage))
	}
	data := map[string]any{"Rows": rows, "PageNo": page, "Pages": pages, "Total": len(runs), "Capped": len(runs) == listedRuns,
		"Counts": counts, "Refresh": refreshSecs, "Prev": page - 1, "Next": page + 1}
	if page >= pages {
		data["Next"] = 0
	}
	return data, nil
}

func (c *Console) runsPage(w http.ResponseWriter, r *http.Request) {
	data, err := c.runsData(r)
	if err != nil {
		c.errorPage(w, r, http.StatusInternalServerError, "The run store could not be read", err.Error())
		return
	}
	c.render(w, r, http.StatusOK, "runs", data)
}

// runsTable is the table alone, which the page's script fetches every few
// seconds so the list stays live.
func (c *Console) runsTable(w http.ResponseWriter, r *http.Request) {
	data, err := c.runsData(r)
	if err != nil {
		c.errorPage(w, r, http.StatusInternalServerError, "The run store could not be read", err.Error())
		return
	}
	c.fragment(w, r, "runs", "table", data)
}

// result is what the run page reads of a stored answer.
type result struct {
	Text        string          `json:"text"`
	JSON        json.RawMessage `json:"json"`
	Detail      string          `json:"detail"`
	OutputError string          `json:"outputError"`
	ParseError  string          `json:"parseError"`
	// ProviderError and AgentError are the model server's and the agent's own
	// words, which Detail summarises.
	ProviderError string  `json:"providerError"`
	AgentError    string  `json:"agentError"`
	Stderr        *string `json:"stderr"`
	HTTPStatus    int     `json:"httpStatus"`
}

var runNotices = map[string]string{
	"cancelled":  "The run was cancelled; its processes are gone.",
	"cancelling": "The run is cancelled; its processes are being stopped.",
	"finished":   "The run had already finished: there was nothing to cancel.",
}

func (c *Console) runPage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	run, err := c.opts.Store.Get(r.Context(), id)
	if errors.Is(err, runstore.ErrNotFound) {
		c.errorPage(w, r, http.StatusNotFound, "No such run",
			"No run has the id "+id+": it never existed, or it finished more than the retention time ago and was removed. The runs page lists those that remain.")
		return
	}
	if err != nil {
		c.errorPage(w, r, http.StatusInternalServerError, "The run store could not be read", err.Error())
		return
	}
	var req request
	_ = json.Unmarshal(run.Request, &req)
	var res result
	_ = json.Unmarshal(run.Result, &res)
	data := map[string]any{"Run": c.row(run, usageOf(run)), "Prompt": req.Prompt, "Result": res, "Error": run.Error,
		"Final": run.Status.Final(), "Notice": runNotices[r.URL.Query().Get("notice")]}
	if len(res.JSON) > 0 && string(res.JSON) != "null" {
		data["Structured"] = res.JSON
	}
	c.render(w, r, http.StatusOK, "run", data)
}

// cancelRun cancels through the API's DELETE /run/{id}, so a cancel from the
// console is the same as one from a client: recorded, processes stopped.
func (c *Console) cancelRun(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if c.opts.Cancel == nil {
		c.errorPage(w, r, http.StatusServiceUnavailable, "Cancel is not available", "This console was started without the API's cancel.")
		return
	}
	del, err := http.NewRequestWithContext(r.Context(), http.MethodDelete, "/run/"+id, nil)
	if err != nil {
		c.errorPage(w, r, http.StatusBadRequest, "Bad run id", err.Error())
		return
	}
	del.SetPathValue("id", id)
	rec := &capture{header: http.Header{}}
	c.opts.Cancel.ServeHTTP(rec, del)
	var ans struct {
		Status string `json:"status"`
		Detail string `json:"detail"`
	}
	_ = json.Unmarshal(rec.body, &ans)
	switch rec.status {
	case http.StatusOK, http.StatusAccepted:
		notice := "cancelled"
		if ans.Status == "cancelling" {
			notice = "cancelling"
		}
		http.Redirect(w, r, "/ui/runs/"+id+"?notice="+notice, http.StatusSeeOther)
	case http.StatusConflict:
		http.Redirect(w, r, "/ui/runs/"+id+"?notice=finished", http.StatusSeeOther)
	case http.StatusNotFound:
		c.errorPage(w, r, http.StatusNotFound, "No such run", "No run has the id "+id+": there is nothing to cancel.")
	default:
		c.errorPage(w, r, http.StatusBadGateway, "The cancel failed", fmt.Sprintf("DELETE /run/%s answered %d: %s", id, rec.status, ans.Detail))
	}
}

// capture keeps the answer of a handler called in-process.
type capture struct {
	header http.Header
	status int
	body   []byte
}

func (c *capture) Header() http.Header { return c.header }
func (c *capture) WriteHeader(s int) {
	if c.status == 0 {
		c.status = s
	}
}
func (c *capture) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	c.body = append(c.body, b...)
	return len(b), nil
}
