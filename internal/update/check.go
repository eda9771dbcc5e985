// Package update tells the user of the terminal UI when a newer albert-code is
// released. It asks a release feed at most once a day, remembers the answer on disk,
// and keeps every failure to itself: a missing or broken feed never stops or slows
// the program. It is the only place besides the configured servers that albert-code
// connects to, and it can be turned off (docs/configuration.md).
package update

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// DefaultFeed is GitHub's latest-release endpoint of the project; its answer is
// {"tag_name": "v0.3.0", "html_url": "..."} (docs.github.com, REST "Get the latest
// release").
const DefaultFeed = "https://api.github.com/repos/etalab-ia/albert-code/releases/latest"

// CacheFileName is the file in the albert-code home that keeps the last answer.
const CacheFileName = "update_check.json"

const (
	// Interval is how long an answer is used before the feed is asked again: once a
	// day, as the original tool's 24 h cache (notes §2.16).
	Interval = 24 * time.Hour
	// Timeout bounds one request. Judgement: the check runs in the background, so it
	// may take a few seconds on a slow link, but must not linger.
	Timeout = 5 * time.Second
	// maxBody bounds what is read of the feed's answer; GitHub's release object is a
	// few kilobytes, more than a megabyte is not a release.
	maxBody = 1 << 20
)

// Release is the feed's answer: the latest tag and its page.
type Release struct {
	Tag string `json:"tag_name"`
	URL string `json:"html_url"`
}

// Checker asks the feed and keeps the answer in CacheFile.
type Checker struct {
	// Feed is the release feed's URL; empty means DefaultFeed.
	Feed string
	// Current is the running binary's version.
	Current string
	// CacheFile remembers the last answer and when it was asked.
	CacheFile string
	// Client sends the request; nil uses one with Timeout.
	Client *http.Client
	// UserAgent names the program to the feed (GitHub refuses requests without one).
	UserAgent string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logger gets the reasons a check gave nothing, at debug level; nil is slog.Default.
	Logger *slog.Logger
}

// cacheEntry is the cache file's content.
type cacheEntry struct {
	CheckedAt time.Time `json:"checked_at"`
	Feed      string    `json:"feed"`
	Release
}

// Newer returns the latest release when it is newer than Current, asking the feed
// only when the cached answer is more than a day old. Every failure (a development
// build, an unreachable feed, a malformed answer, an unwritable cache) is logged at
// debug level and answers false.
func (c *Checker) Newer(ctx context.Context) (Release, bool) {
	log := c.Logger
	if log == nil {
		log = slog.Default()
	}
	current, err := ParseVersion(c.Current)
	if err != nil {
		log.Debug("update check skipped: the running version is not a release", "version", c.Current)
		return Release{}, false
	}
	rel, err := c.latest(ctx, log)
	if err != nil {
		log.Debug("update check gave no answer", "err", err)
		return Release{}, false
	}
	latest, err := ParseVersion(rel.Tag)
	if err != nil {
		log.Debug("update check: the feed's tag is not a version", "err", err)
		return Release{}, false
	}
	if latest.Compare(current) <= 0 {
		return Release{}, false
	}
	return rel, true
}

// latest returns the cached release if it is fresh, else asks the feed and caches
// the answer. A failed request is cached too, so a broken feed is asked once a day.
func (c *Checker) latest(ctx context.Context, log *slog.Logger) (Release, error) {
	now := c.now()
	cached, err := c.readCache()
	if err != nil {
		log.Debug("update check: cache unreadable, asking the feed", "err", err)
	}
	if err == nil && cached.Feed == c.feed() && !cached.CheckedAt.After(now) && now.Sub(cached.CheckedAt) < Interval {
		if cached.Tag == "" {
			return Release{}, errors.New("the last request, less than a day ago, had no answer")
		}
		return cached.Release, nil
	}
	rel, fetchErr := c.fetch(ctx)
	entry := cacheEntry{CheckedAt: now, Feed: c.feed(), Release: rel}
	if fetchErr != nil && cached.Feed == c.feed() {
		entry.Release = cached.Release // keep the last good answer
	}
	if err := c.writeCache(entry); err != nil {
		log.Debug("update check: cache not written", "err", err)
	}
	if fetchErr != nil {
		return Release{}, fetchErr
	}
	return rel, nil
}

func (c *Checker) fetch(ctx context.Context) (Release, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.feed(), nil)
	if err != nil {
		return Release{}, fmt.Errorf("update feed %q: %w", c.feed(), err)
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	if c.UserAgent != "" {
		req.Header.Set("User-Agent", c.UserAgent)
	}
	client := c.Client
	if client == nil {
		client = &http.Client{Timeout: Timeout}
	}
	resp, err := client.Do(req)
	if err != nil {
		return Release{}, fmt.Errorf("update feed: %w", err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return Release{}, fmt.Errorf("update feed %s: status %s", c.feed(), resp.Status)
	}
	var rel Release
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxBody)).Decode(&rel); err != nil {
		return Release{}, fmt.Errorf("update feed %s: malformed answer: %w", c.feed(), err)
	}
	if _, err := ParseVersion(rel.Tag); err != nil {
		return Release{}, fmt.Errorf("update feed %s: tag_name: %w", c.feed(), err)
	}
	if !strings.HasPrefix(rel.URL, "https://") && !strings.HasPrefix(rel.URL, "http://") {
		rel.URL = "" // only a web page is worth showing
	}
	return rel, nil
}

func (c *Checker) readCache() (cacheEntry, error) {
	var e cacheEntry
	data, err := os.ReadFile(c.CacheFile)
	if errors.Is(err, os.ErrNotExist) {
		return e, nil
	}
	if err != nil {
		return e, err
	}
	if err := json.Unmarshal(data, &e); err != nil {
		return cacheEntry{}, fmt.Errorf("%s: %w", c.CacheFile, err)
	}
	return e, nil
}

func (c *Checker) writeCache(e cacheEntry) error {
	data, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(c.CacheFile), 0o700); err != nil {
		return err
	}
	tmp := c.CacheFile + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, c.CacheFile)
}

func (c *Checker) feed() string {
	if c.Feed == "" {
		return DefaultFeed
	}
	return c.Feed
}

func (c *Checker) now() time.Time {
	if c.Now == nil {
		return time.Now()
	}
	return c.Now()
}
