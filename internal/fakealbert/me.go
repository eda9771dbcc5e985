package fakealbert

import (
	"net/http"
	"slices"
	"strconv"
	"time"
)

// usageEvent is one accepted chat request, as /v1/me/usage lists it.
type usageEvent struct {
	Model              string
	Created            int64
	Prompt, Completion int
}

func (s *Server) info(w http.ResponseWriter, _ *http.Request) {
	type limit struct {
		RouterID int    `json:"router_id"`
		Type     string `json:"type"`
		Value    *int   `json:"value"`
	}
	var limits []limit
	for _, m := range s.opts.Models {
		for _, l := range []struct {
			typ string
			v   int
		}{{"rpm", m.Limits.RPM}, {"rpd", m.Limits.RPD}, {"tpm", m.Limits.TPM}, {"tpd", m.Limits.TPD}} {
			var v *int // null: unlimited
			if l.v > 0 {
				v = &l.v
			}
			limits = append(limits, limit{RouterID: m.RouterID, Type: l.typ, Value: v})
		}
	}
	u := s.opts.User
	writeJSON(w, http.StatusOK, map[string]any{"id": u.ID, "name": u.Name, "email": u.Email, "limits": limits})
}

// meUsage pages the accepted requests, newest first, as Albert's /v1/me/usage:
// limit 1-100 (default 10, more is a 422), offset, start_time and end_time in unix
// seconds.
func (s *Server) meUsage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	num := func(name string, def int64) (int64, bool) {
		v := q.Get(name)
		if v == "" {
			return def, true
		}
		n, err := strconv.ParseInt(v, 10, 64)
		return n, err == nil
	}
	limit, ok1 := num("limit", 10)
	offset, ok2 := num("offset", 0)
	start, ok3 := num("start_time", 0)
	end, ok4 := num("end_time", 1<<62)
	if !ok1 || !ok2 || !ok3 || !ok4 || limit < 1 || limit > 100 || offset < 0 {
		detail(w, http.StatusUnprocessableEntity, []map[string]any{{"loc": []string{"query", "limit"},
			"msg": "Input should be less than or equal to 100", "type": "less_than_equal"}}, nil)
		return
	}
	s.mu.Lock()
	var match []usageEvent
	for _, e := range s.usage {
		if e.Created >= start && e.Created <= end {
			match = append(match, e)
		}
	}
	s.mu.Unlock()
	slices.Reverse(match)
	data := []map[string]any{}
	for i := offset; i < int64(len(match)) && i < offset+limit; i++ {
		e := match[i]
		data = append(data, map[string]any{"object": "me.usage", "model": e.Model, "key": "fake", "endpoint": "/v1/chat/completions",
			"method": "POST", "status": 200, "created": e.Created, "usage": usageJSON(e.Prompt, e.Completion)})
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
}

// AddUsage records past usage, as if another client of the same key had made
// these calls: it shows in /v1/me/usage and counts against the limits.
func (s *Server) AddUsage(model string, created int64, promptTokens int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.usage = append(s.usage, usageEvent{Model: model, Created: created, Prompt: promptTokens})
	if m, ok := s.model(model); ok {
		s.requests[m.ID] = append(s.requests[m.ID], event{at: time.Unix(created, 0), tokens: promptTokens})
	}
}
