package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// chatBody is the streamed request both targets get: the same bytes, so the
// floor and serve parse the same thing.
const chatBody = `{"model":"` + model + `","stream":true,"messages":[{"role":"user","content":"Say hello."}]}`

// chatTurn is the fake model's answer: a short streamed text with no scripted
// delay, so what is measured is the software, not a sleep.
func chatTurn(firstByte time.Duration) fakemodel.Turn {
	return fakemodel.Turn{
		Text:           []string{"Hello", " from", " the", " fake", " model."},
		FirstByteDelay: firstByte,
		Usage:          &fakemodel.Usage{PromptTokens: 10, CompletionTokens: 5},
	}
}

func repeat(t fakemodel.Turn, n int) fakemodel.Script {
	turns := make([]fakemodel.Turn, n)
	for i := range turns {
		turns[i] = t
	}
	return fakemodel.Script{Models: []fakemodel.Model{{ID: model}}, Turns: turns}
}

// loadResult is one leg of the latency benchmark.
type loadResult struct {
	ok, bad int
	wall    time.Duration
	ttfb    []float64     // ms, one per successful request
	cpu     time.Duration // CPU time serve used during the leg
}

func (r loadResult) rps() float64 { return float64(r.ok+r.bad) / r.wall.Seconds() }

// loadGen sends n streamed chat requests over c concurrent clients, each at most
// qps requests a second when qps > 0 (as hey -q), and records each one's time to
// first byte.
type loadGen interface {
	run(ctx context.Context, url string, auth bool, n, c int, qps float64) (loadResult, error)
	name() string
}

// heyGen drives hey (Debian package hey). Its CSV output gives per request the
// "response-delay": from the request written to the first response byte
// (httptrace), which is the time to first byte, to 0.1 ms.
type heyGen struct{ bin string }

func (h heyGen) name() string { return "hey" }

func (h heyGen) run(ctx context.Context, url string, auth bool, n, c int, qps float64) (loadResult, error) {
	args := []string{"-n", strconv.Itoa(n), "-c", strconv.Itoa(c), "-m", "POST", "-T", "application/json",
		"-d", chatBody, "-o", "csv"}
	if auth {
		args = append(args, "-H", "Authorization: Bearer "+token)
	}
	if qps > 0 {
		args = append(args, "-q", strconv.FormatFloat(qps, 'f', -1, 64))
	}
	args = append(args, url)
	cmd := exec.CommandContext(ctx, h.bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return loadResult{}, fmt.Errorf("hey: %v: %s", err, errb.String())
	}
	res := loadResult{wall: time.Since(start)}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		return res, fmt.Errorf("hey csv: %w", err)
	}
	// response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset
	for i, rec := range recs {
		if i == 0 || len(rec) < 8 {
			continue
		}
		code, _ := strconv.Atoi(rec[6])
		delay, err := strconv.ParseFloat(rec[4], 64)
		if code != http.StatusOK || err != nil {
			res.bad++
			continue
		}
		res.ok++
		res.ttfb = append(res.ttfb, delay*1000)
	}
	// hey does not report transport errors in its CSV: count them as lost.
	res.bad += n - res.ok - res.bad
	return res, nil
}

// goGen is the in-process generator, used when hey is not installed (the test):
// the same measure, time from the request written to the first response byte.
type goGen struct{}

func (goGen) name() string { return "in-process Go client" }

func (goGen) run(ctx context.Context, url string, auth bool, n, c int, qps float64) (loadResult, error) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: c}}
	defer client.CloseIdleConnections()
	var (
		mu   sync.Mutex
		res  loadResult
		next = make(chan struct{}, n)
		wg   sync.WaitGroup
	)
	for range n {
		next <- struct{}{}
	}
	close(next)
	start := time.Now()
	for range c {
		wg.Go(func() {
			var tick <-chan time.Time
			if qps > 0 {
				t := time.NewTicker(time.Duration(float64(time.Second) / qps))
				defer t.Stop()
				tick = t.C
			}
			for range next {
				if tick != nil {
					<-tick
				}
				var wrote, first time.Time
				trace := &httptrace.ClientTrace{
					WroteRequest:         func(httptrace.WroteRequestInfo) { wrote = time.Now() },
					GotFirstResponseByte: func() { first = time.Now() },
				}
				req, _ := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), http.MethodPost, url, bytes.NewReader([]byte(chatBody)))
				req.Header.Set("Content-Type", "application/json")
				if auth {
					req.Header.Set("Authorization", "Bearer "+token)
				}
				resp, err := client.Do(req)
				ok := err == nil && resp.StatusCode == http.StatusOK
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					_ = resp.Body.Close()
					ok = ok && err == nil
				}
				mu.Lock()
				if ok {
					res.ok++
					res.ttfb = append(res.ttfb, ms(first.Sub(wrote)))
				} else {
					res.bad++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	res.wall = time.Since(start)
	return res, ctx.Err()
}
