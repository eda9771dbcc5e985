package modellist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// maxListBytes bounds the body read: Albert's list of about twenty models is a
// few kilobytes; judgement, a thousand times that is not a model list.
const maxListBytes = 4 << 20

// wireList is GET /models as OpenAI documents it, with Albert's extra fields.
type wireList struct {
	Data *[]struct {
		ID               string   `json:"id"`
		Aliases          []string `json:"aliases"`
		MaxContextLength int      `json:"max_context_length"`
	} `json:"data"`
}

// fetch asks s for its list. Every error names the server and the URL.
func fetch(ctx context.Context, client *http.Client, s Server) ([]Model, error) {
	url := strings.TrimRight(s.BaseURL, "/") + "/models"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("model list of %s (%s): %w", s.Name, url, err)
	}
	if s.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+s.APIKey)
	}
	for k, v := range s.Headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("model list of %s unavailable: %w", s.Name, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxListBytes+1))
	if err != nil {
		return nil, fmt.Errorf("model list of %s unavailable: GET %s: %w", s.Name, url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("model list of %s unavailable: GET %s answered %s", s.Name, url, resp.Status)
	}
	if len(body) > maxListBytes {
		return nil, fmt.Errorf("model list of %s is malformed: GET %s returned more than %d bytes", s.Name, url, maxListBytes)
	}
	models, err := parse(body)
	if err != nil {
		return nil, fmt.Errorf("model list of %s is malformed: GET %s: %w", s.Name, url, err)
	}
	return models, nil
}

// parse reads a list body; entries without an id are skipped, a body without a
// data array is an error.
func parse(body []byte) ([]Model, error) {
	var l wireList
	if err := json.Unmarshal(body, &l); err != nil {
		return nil, fmt.Errorf("not the JSON of a model list: %w", err)
	}
	if l.Data == nil {
		return nil, errors.New(`no "data" array`)
	}
	out := make([]Model, 0, len(*l.Data))
	for _, d := range *l.Data {
		if d.ID == "" {
			continue
		}
		out = append(out, Model{ID: d.ID, Aliases: d.Aliases, ContextWindow: max(d.MaxContextLength, 0)})
	}
	return out, nil
}
