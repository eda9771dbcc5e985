package main

import (
	"context"
	"fmt"
	"net/url"
	"sync"
	"time"
)

func final(status string) bool {
	return status == "completed" || status == "failed" || status == "cancelled"
}

// submit sends n async /run requests at once, each on its own workspace (so
// none waits behind another's lock), and returns their run ids.
func submit(ctx context.Context, p *serveProc, n int, tag string) ([]string, error) {
	ids := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			code, out, err := p.call(ctx, "POST", "/run", map[string]any{
				"prompt": "Say hello.", "async": true, "workspace": fmt.Sprintf("%s-%d", tag, i), "model": model,
			})
			switch {
			case err != nil:
				errs[i] = err
			case code != 202:
				errs[i] = fmt.Errorf("POST /run async: %d %v", code, out)
			default:
				id, _ := out["runId"].(string)
				ids[i] = id
				if id == "" {
					errs[i] = fmt.Errorf("POST /run async: no runId in %v", out)
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return ids, err
		}
	}
	return ids, nil
}

// drain polls GET /run/result for every id until each has a final status, with
// 8 pollers, calling sample between sweeps. It returns the count per status.
func drain(ctx context.Context, p *serveProc, ids []string, limit time.Duration, sample func()) (map[string]int, error) {
	pending := map[string]bool{}
	for _, id := range ids {
		pending[id] = true
	}
	got := map[string]int{}
	deadline := time.Now().Add(limit)
	for len(pending) > 0 {
		if time.Now().After(deadline) {
			got["not final"] = len(pending)
			return got, fmt.Errorf("%d runs had no final status after %v", len(pending), limit)
		}
		var (
			mu   sync.Mutex
			wg   sync.WaitGroup
			work = make(chan string, len(pending))
			perr error
		)
		for id := range pending {
			work <- id
		}
		close(work)
		for range 8 {
			wg.Go(func() {
				for id := range work {
					code, out, err := p.call(ctx, "GET", "/run/result?runId="+url.QueryEscape(id), nil)
					mu.Lock()
					switch {
					case err != nil:
						perr = err
					case code != 200 && code != 202:
						// A finished run answers with its own httpStatus; read status either way.
						fallthrough
					default:
						if s, _ := out["status"].(string); final(s) {
							delete(pending, id)
							got[s]++
						}
					}
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if perr != nil {
			return got, perr
		}
		sample()
		if len(pending) > 0 {
			time.Sleep(10 * time.Millisecond)
		}
	}
	return got, nil
}

// asyncResult is one round of the async leg.
type asyncResult struct {
	n         int
	accepted  int
	statuses  map[string]int
	modelReqs int
	submit    time.Duration // until every 202 was back
	drain     time.Duration // from the first POST to the last final status
	hwmKiB    int64         // VmHWM of serve at the end
	startKiB  int64         // VmRSS before the burst
	sampleMax int64         // highest VmRSS sampled during the drain
}
