// Package modellist reads the models an OpenAI-compatible server lists at
// GET /models (Albert, OpenAI, Ollama, vLLM, llama.cpp) and keeps them in a
// small on-disk cache, so that a name the server knows costs a request only the
// first time, and a stale list is used at once while a fresh one is fetched in
// the background.
package modellist

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// DefaultTTL is how long a list is used without asking again. Judgement: a model
// added on the server shows up within the hour, at the cost of one background
// request an hour at most.
const DefaultTTL = time.Hour

// fetchTimeout bounds one GET /models: the original tool gave it 5 s
// (notes/albert-code.md §4, /v1/models).
const fetchTimeout = 5 * time.Second

// Model is one model a server lists.
type Model struct {
	// ID is the server's canonical id: the name sent on the wire.
	ID string `json:"id"`
	// Aliases are other names the server accepts for ID (Albert's `aliases`).
	Aliases []string `json:"aliases,omitempty"`
	// ContextWindow is Albert's `max_context_length`; 0 when the server does not say.
	ContextWindow int `json:"context_window,omitempty"`
}

// Server says which server to ask.
type Server struct {
	// Name is the provider's name, used in notices.
	Name string
	// BaseURL ends before /models, as for chat completions (".../v1").
	BaseURL string
	APIKey  string
	Headers map[string]string
}

// Lister reads and caches model lists. The zero value is not usable: set Dir.
// It is safe for concurrent use.
type Lister struct {
	// Dir holds one cache file per base URL.
	Dir string
	// TTL is DefaultTTL when zero.
	TTL time.Duration
	// Client is http.DefaultClient when nil.
	Client *http.Client
	// Notice receives one line per server whose list cannot be read; nil discards.
	Notice io.Writer
	// Now is time.Now when nil (tests).
	Now func() time.Time

	mu         sync.Mutex
	mem        map[string]cached
	refreshing map[string]bool
	noticed    map[string]bool
	wg         sync.WaitGroup
}

// Models returns the models s lists: from memory or the cache file when there is
// one (a stale one is returned too, and refreshed in the background), else from
// the server. The error names the server and says what went wrong; it has been
// written to Notice once.
func (l *Lister) Models(ctx context.Context, s Server) ([]Model, error) {
	key := strings.TrimRight(s.BaseURL, "/")
	l.mu.Lock()
	c, ok := l.mem[key]
	l.mu.Unlock()
	if !ok {
		c, ok = readCache(l.path(key), key)
	}
	if ok {
		l.remember(key, c)
		if l.now().Sub(c.FetchedAt) > l.ttl() {
			l.refreshInBackground(s, key)
		}
		return c.Models, nil
	}
	models, err := l.fetchAndStore(ctx, s, key)
	if err != nil {
		l.notice(key, err)
		return nil, err
	}
	return models, nil
}

// Cached returns what the memory or the cache file holds for s, without waiting
// for the server: nil when nothing is cached yet. A missing or stale list is
// fetched in the background, for the next caller. Pickers use it, so that
// showing a menu never waits on the network.
func (l *Lister) Cached(s Server) []Model {
	key := strings.TrimRight(s.BaseURL, "/")
	l.mu.Lock()
	c, ok := l.mem[key]
	l.mu.Unlock()
	if !ok {
		c, ok = readCache(l.path(key), key)
	}
	if ok {
		l.remember(key, c)
	}
	if !ok || l.now().Sub(c.FetchedAt) > l.ttl() {
		l.refreshInBackground(s, key)
	}
	return c.Models
}

// Seed records models as baseURL's list, fetched now: for a caller that already
// knows the list (the benchmark gives a fresh home the cache a previous run
// would have left).
func (l *Lister) Seed(baseURL string, models []Model) error {
	key := strings.TrimRight(baseURL, "/")
	c := cached{BaseURL: key, FetchedAt: l.now(), Models: models}
	l.remember(key, c)
	return writeCache(l.path(key), c)
}

// Wait waits for the background refreshes started so far.
func (l *Lister) Wait() { l.wg.Wait() }

func (l *Lister) refreshInBackground(s Server, key string) {
	l.mu.Lock()
	if l.refreshing == nil {
		l.refreshing = map[string]bool{}
	}
	if l.refreshing[key] {
		l.mu.Unlock()
		return
	}
	l.refreshing[key] = true
	l.mu.Unlock()
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		// A failed refresh keeps the stale list: it is still the best we know.
		_, _ = l.fetchAndStore(context.Background(), s, key)
		l.mu.Lock()
		delete(l.refreshing, key)
		l.mu.Unlock()
	}()
}

func (l *Lister) fetchAndStore(ctx context.Context, s Server, key string) ([]Model, error) {
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	models, err := fetch(ctx, l.client(), s)
	if err != nil {
		return nil, err
	}
	c := cached{BaseURL: key, FetchedAt: l.now(), Models: models}
	l.remember(key, c)
	// A cache that cannot be written costs a request next time, nothing more.
	_ = writeCache(l.path(key), c)
	return models, nil
}

func (l *Lister) remember(key string, c cached) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.mem == nil {
		l.mem = map[string]cached{}
	}
	l.mem[key] = c
}

func (l *Lister) notice(key string, err error) {
	l.mu.Lock()
	seen := l.noticed[key]
	if l.noticed == nil {
		l.noticed = map[string]bool{}
	}
	l.noticed[key] = true
	l.mu.Unlock()
	if !seen && l.Notice != nil {
		fmt.Fprintf(l.Notice, "albert-code: notice: %v; going on with the configured models\n", err)
	}
}

// path names the cache file of a base URL: a hash, since URLs are not file names.
func (l *Lister) path(key string) string {
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(l.Dir, hex.EncodeToString(sum[:8])+".json")
}

func (l *Lister) ttl() time.Duration {
	if l.TTL > 0 {
		return l.TTL
	}
	return DefaultTTL
}

func (l *Lister) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

func (l *Lister) client() *http.Client {
	if l.Client != nil {
		return l.Client
	}
	return http.DefaultClient
}
