package console

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/runstore"
)

// Timing of a run's event stream. Judgement: the API writes a run's events at
// most every 250 ms; polling the store at the same pace shows them as they come
// without a query storm, and a comment every 15 s keeps proxies from closing an
// idle stream.
const (
	eventPoll      = 250 * time.Millisecond
	eventHeartbeat = 15 * time.Second
	eventBatch     = 500
)

// streamed is one event as the page's script reads it.
type streamed struct {
	Seq     int64           `json:"seq"`
	Attempt int             `json:"attempt"`
	Type    string          `json:"type"`
	Data    json.RawMessage `json:"data"`
	Time    time.Time       `json:"time"`
}

// runEvents streams a run's events as Server-Sent Events from the run store,
// from the first (or after Last-Event-ID on a reconnect) until the run has
// ended and every event is sent; then an "end" event carries its status.
func (c *Console) runEvents(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	run, err := c.opts.Store.Get(r.Context(), id)
	if errors.Is(err, runstore.ErrNotFound) {
		c.errorPage(w, r, http.StatusNotFound, "No such run", "No run has the id "+id+".")
		return
	}
	if err != nil {
		c.errorPage(w, r, http.StatusInternalServerError, "The run store could not be read", err.Error())
		return
	}
	after, _ := strconv.ParseInt(r.Header.Get("Last-Event-ID"), 10, 64)
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{}) // a stream lasts as long as its run
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	_ = rc.Flush()
	poll := time.NewTicker(eventPoll)
	defer poll.Stop()
	lastWrite := time.Now()
	for {
		evs, err := c.opts.Store.Events(r.Context(), id, after, eventBatch)
		if err != nil {
			fmt.Fprintf(w, "event: failure\ndata: %s\n\n", jsonString("read the run's events: "+err.Error()))
			_ = rc.Flush()
			return
		}
		for _, e := range evs {
			data, _ := json.Marshal(streamed{Seq: e.Seq, Attempt: e.Attempt, Type: e.Type, Data: e.Data, Time: e.Time})
			fmt.Fprintf(w, "id: %d\nevent: run\ndata: %s\n\n", e.Seq, data)
			after = e.Seq
		}
		if len(evs) > 0 {
			lastWrite = time.Now()
			_ = rc.Flush()
		}
		if len(evs) == eventBatch {
			continue
		}
		if run.Status.Final() {
			fmt.Fprintf(w, "event: end\ndata: %s\n\n", jsonString(string(run.Status)))
			_ = rc.Flush()
			return
		}
		if time.Since(lastWrite) > eventHeartbeat {
			fmt.Fprint(w, ": still running\n\n")
			_ = rc.Flush()
			lastWrite = time.Now()
		}
		select {
		case <-r.Context().Done():
			return
		case <-poll.C:
		}
		// The status is read before the next batch, so events written just before
		// the run ended are sent before its end.
		if run, err = c.opts.Store.Get(r.Context(), id); err != nil {
			return
		}
	}
}

func jsonString(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}
