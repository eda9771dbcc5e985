// Package browsertest runs a real headless Chromium for tests, driven by chromedp:
// it finds the browser, bounds each test in time, keeps the browser off the
// network, fails the test on any console error, uncaught exception or failed
// request, and saves screenshots where a developer or CI can look at them.
package browsertest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// ScreenshotsEnv names the folder where screenshots are saved; unset, each test
// saves them in its own temporary folder.
const ScreenshotsEnv = "ALBERT_CODE_SCREENSHOTS"

// ChromiumEnv names the browser binary to use instead of the first of
// chromiumNames found on PATH.
const ChromiumEnv = "ALBERT_CODE_CHROMIUM"

// chromiumNames are the names Debian, Ubuntu and Google give the browser.
var chromiumNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// DefaultTimeout bounds one test's browser when Options.Timeout is zero.
// Judgement: a page of ours loads in well under a second; a test of a few pages
// with a streamed run fits in 30 s even on a loaded two-core machine.
const DefaultTimeout = 60 * time.Second

// Options tune a Browser; the zero value is ready to use.
type Options struct {
	// Timeout bounds the whole browser's life in the test (0: DefaultTimeout).
	Timeout time.Duration
	// Width and Height are the window's size (0: 1280×800).
	Width, Height int
}

// Browser is one headless Chromium with one tab, owned by one test.
type Browser struct {
	t   testing.TB
	ctx context.Context
	dir string

	mu       sync.Mutex
	problems []string
	allowed  []*regexp.Regexp
	urls     map[network.RequestID]string
}

// Find returns the path of the Chromium binary, or an error that says how to
// install it.
func Find() (string, error) {
	if p := os.Getenv(ChromiumEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s=%s: %w", ChromiumEnv, p, err)
		}
		return p, nil
	}
	for _, name := range chromiumNames {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no Chromium on PATH (looked for " + strings.Join(chromiumNames, ", ") +
		"): install it with `apt-get install -y chromium` (.ci/run does), or set " + ChromiumEnv)
}

// allocatorOptions start Chromium headless, off the network, in userDataDir.
func allocatorOptions(path, userDataDir string, width, height int) []chromedp.ExecAllocatorOption {
	alloc := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.UserDataDir(userDataDir),
		chromedp.WindowSize(width, height),
		chromedp.Flag("disable-gpu", true),
		// Every request but loopback goes to a closed port: a test never reaches
		// the internet, even when a page asks for it (Chromium never proxies
		// loopback addresses).
		chromedp.ProxyServer("http://127.0.0.1:9"),
		chromedp.Flag("no-proxy-server", false),
	)
	if os.Geteuid() == 0 {
		// Chromium refuses to run as root with its sandbox on; CI runs as root.
		alloc = append(alloc, chromedp.NoSandbox)
	}
	return alloc
}

// Launch starts the same headless Chromium for a program that is not a test (the
// benchmarks): a 1280x800 tab, and the func that stops it and removes its profile.
func Launch(ctx context.Context) (context.Context, func(), error) {
	path, err := Find()
	if err != nil {
		return nil, nil, err
	}
	dir, err := os.MkdirTemp("", "albert-code-chromium-")
	if err != nil {
		return nil, nil, err
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, allocatorOptions(path, dir, 1280, 800)...)
	tab, cancelTab := chromedp.NewContext(actx)
	stop := func() { cancelTab(); cancelAlloc(); _ = os.RemoveAll(dir) }
	if err := chromedp.Do(tab); err != nil {
		stop()
		return nil, nil, fmt.Errorf("start Chromium (%s): %w", path, err)
	}
	return tab, stop, nil
}

// New starts a headless Chromium for t. The browser stops when the test ends or
// its timeout passes; the test then fails if the pages logged a console error,
// threw an uncaught exception or had a request fail, unless Allow matched it.
func New(t testing.TB, opts Options) *Browser {
	t.Helper()
	path, err := Find()
	if err != nil {
		t.Fatal(err)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Width <= 0 || opts.Height <= 0 {
		opts.Width, opts.Height = 1280, 800
	}
	alloc := allocatorOptions(path, t.TempDir(), opts.Width, opts.Height)
	deadline, cancelDeadline := context.WithTimeout(context.Background(), opts.Timeout)
	actx, cancelAlloc := chromedp.NewExecAllocator(deadline, alloc...)
	ctx, cancelTab := chromedp.NewContext(actx)
	b := &Browser{t: t, ctx: ctx, dir: screenshotDir(t), urls: map[network.RequestID]string{}}
	t.Cleanup(func() {
		_ = chromedp.Cancel(ctx)
		cancelTab()
		cancelAlloc()
		cancelDeadline()
		for _, p := range b.Problems() {
			t.Errorf("browser: %s", p)
		}
	})
	if err := chromedp.Listen(ctx, b.record); err != nil {
		t.Fatalf("start Chromium (%s): %v", path, err)
	}
	return b
}

// Context is the tab's context, for chromedp.Run and chromedp.Do.
func (b *Browser) Context() context.Context { return b.ctx }

// Do runs actions in the tab and fails the test, naming what, on the first error.
func (b *Browser) Do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		b.t.Fatalf("browser: %s: %v (problems so far: %v)", what, err, b.Problems())
	}
}

// Allow tolerates the problems whose text matches pattern, such as the 404 a
// test asks for on purpose.
func (b *Browser) Allow(pattern string) {
	re := regexp.MustCompile(pattern)
	b.mu.Lock()
	b.allowed = append(b.allowed, re)
	b.mu.Unlock()
}

// Problems lists the console errors, exceptions and failed requests seen so far
// that Allow did not match.
func (b *Browser) Problems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, p := range b.problems {
		allowed := false
		for _, re := range b.allowed {
			if re.MatchString(p) {
				allowed = true
				break
			}
		}
		if !allowed {
			out = append(out, p)
		}
	}
	return out
}

// Screenshot saves the whole page as <dir>/<test>-<name>.png and returns the path.
func (b *Browser) Screenshot(name string) string {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatalf("browser: screenshot %s: %v", name, err)
	}
	path := filepath.Join(b.dir, fileName(b.t.Name())+"-"+fileName(name)+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatalf("browser: save screenshot: %v", err)
	}
	b.t.Logf("screenshot: %s", path)
	return path
}

// record runs on chromedp's reading goroutine: it must be quick and never call
// the browser.
func (b *Browser) record(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch e := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
			b.problems = append(b.problems, "console."+string(e.Type)+": "+consoleText(e.Args))
		}
	case *runtime.EventExceptionThrown:
		d := e.ExceptionDetails
		text := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			text += " " + d.Exception.Description
		}
		b.problems = append(b.problems, fmt.Sprintf("uncaught exception at %s:%d: %s", d.URL, d.LineNumber+1, text))
	case *log.EventEntryAdded:
		// The network's entries repeat the failed requests reported below.
		if e.Entry.Level == log.EntryLevelError && e.Entry.Source != log.EntrySourceNetwork {
			b.problems = append(b.problems, fmt.Sprintf("console (%s): %s %s", e.Entry.Source, e.Entry.Text, e.Entry.URL))
		}
	case *network.EventRequestWillBeSent:
		b.urls[e.RequestID] = e.Request.URL
	case *network.EventResponseReceived:
		// The browser asks for /favicon.ico on its own; a page that has none is
		// not at fault.
		if e.Response.Status >= 400 && !strings.HasSuffix(e.Response.URL, "/favicon.ico") {
			b.problems = append(b.problems, fmt.Sprintf("request failed: %d %s", e.Response.Status, e.Response.URL))
		}
	case *network.EventLoadingFailed:
		// A request the page itself stops (an event stream closed by leaving the
		// page) is canceled, not failed.
		if !e.Canceled {
			b.problems = append(b.problems, fmt.Sprintf("request failed: %s %s", e.ErrorText, b.urls[e.RequestID]))
		}
	}
}

func consoleText(args []*runtime.RemoteObject) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		switch {
		case len(a.Value) > 0:
			parts = append(parts, strings.Trim(string(a.Value), `"`))
		case a.Description != "":
			parts = append(parts, a.Description)
		default:
			parts = append(parts, string(a.Type))
		}
	}
	return strings.Join(parts, " ")
}

func screenshotDir(t testing.TB) string {
	dir := os.Getenv(ScreenshotsEnv)
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("%s=%s: %v", ScreenshotsEnv, dir, err)
	}
	return dir
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func fileName(s string) string { return unsafeName.ReplaceAllString(s, "_") }

// Into turns an action that returns a value into a step of Do that stores it
// in out, so reads and clicks go in one Do.
func Into[T any](a chromedp.Action[T], out *T) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		v, err := a(ctx, t)
		if err == nil {
			*out = v
		}
		return chromedp.Void{}, err
	}
}

// Text returns the visible text of the first element matching the CSS selector
// css, waiting for it to exist, and fails the test if it cannot.
func (b *Browser) Text(css string) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Text(chromedp.CSS(css)))
	if err != nil {
		b.t.Fatalf("browser: read the text of %s: %v (problems so far: %v)", css, err, b.Problems())
	}
	return s
}
