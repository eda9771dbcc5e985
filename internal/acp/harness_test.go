package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/etalab-ia/albert-code/internal/agentenv"
	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

// fixture is a server on an in-memory pipe, a fake model, and a folder to work in.
type fixture struct {
	t     testing.TB
	srv   *fakemodel.Server
	work  string
	vars  map[string]string
	toSrv *io.PipeWriter // the client's writes
	wire  *tap           // everything the server wrote
	done  chan error
}

// tap keeps every line the server writes and passes it on to the client.
type tap struct {
	mu    sync.Mutex
	lines []string
	w     io.Writer
	buf   []byte
}

func (t *tap) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.buf = append(t.buf, p...)
	for {
		i := strings.IndexByte(string(t.buf), '\n')
		if i < 0 {
			break
		}
		t.lines = append(t.lines, string(t.buf[:i]))
		t.buf = t.buf[i+1:]
	}
	t.mu.Unlock()
	return t.w.Write(p)
}

func (t *tap) all() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.lines...)
}

// start runs Serve for a test; fromSrv is what the client reads.
func start(t testing.TB, script fakemodel.Script, extraEnv map[string]string) (*fixture, io.Reader) {
	t.Helper()
	return startWith(t, script, extraEnv, nil)
}

// startWith is start with tune, when not nil, changing the options Serve gets.
func startWith(t testing.TB, script fakemodel.Script, extraEnv map[string]string, tune func(*Options)) (*fixture, io.Reader) {
	t.Helper()
	srv := fakemodel.NewTest(t, script)
	root := t.TempDir()
	work := filepath.Join(root, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{
		"HOME": filepath.Join(root, "home"), "ALBERT_CODE_HOME": filepath.Join(root, "home", ".albert-code"),
		"XDG_CONFIG_HOME": filepath.Join(root, "xdg"), "ALBERT_API_KEY": "k", "ALBERT_CODE_BASE_URL": srv.URL(),
	}
	for k, v := range extraEnv {
		if v == "" {
			delete(vars, k)
		} else {
			vars[k] = v
		}
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	f := &fixture{t: t, srv: srv, work: work, vars: vars, toSrv: inW, wire: &tap{w: outW}, done: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	opts := Options{
		Version: "test",
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
		LoadEnv: func(cwd string) (*agentenv.Env, error) {
			return agentenv.Load(agentenv.Options{WorkDir: cwd, Trust: true,
				LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }})
		},
	}
	if tune != nil {
		tune(&opts)
	}
	go func() {
		f.done <- Serve(ctx, inR, f.wire, opts)
		_ = outW.Close()
	}()
	t.Cleanup(func() {
		_ = inW.Close()
		select {
		case <-f.done:
		case <-time.After(10 * time.Second):
			t.Error("Serve did not return after its input closed")
		}
		cancel()
	})
	return f, outR
}

// client is a scripted editor on the Go SDK's client side.
type client struct {
	mu      sync.Mutex
	updates []sdk.SessionNotification
	asked   []sdk.RequestPermissionRequest
	// answers are the option ids to pick, in order; "" dismisses the request.
	answers []string
	// onUpdate, when set, sees every update as it arrives.
	onUpdate func(sdk.SessionNotification)
	files    map[string]string
	written  map[string]string
	// terminal is the scripted editor terminal: every command prints termOutput and
	// exits with termExit.
	termOutput string
	termExit   int
	commands   [][]string
	released   []string
}

func (c *client) RequestPermission(_ context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asked = append(c.asked, p)
	ans := ""
	if len(c.answers) > 0 {
		ans, c.answers = c.answers[0], c.answers[1:]
	}
	if ans == "" {
		return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}, nil
	}
	return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected(sdk.PermissionOptionId(ans))}, nil
}

func (c *client) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	c.mu.Lock()
	c.updates = append(c.updates, n)
	f := c.onUpdate
	c.mu.Unlock()
	if f != nil {
		f(n)
	}
	return nil
}

func (c *client) ReadTextFile(_ context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	text, ok := c.files[p.Path]
	if !ok {
		return sdk.ReadTextFileResponse{}, &sdk.RequestError{Code: -32002, Message: "no such buffer " + p.Path}
	}
	return sdk.ReadTextFileResponse{Content: text}, nil
}

func (c *client) WriteTextFile(_ context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.written == nil {
		c.written = map[string]string{}
	}
	c.written[p.Path] = p.Content
	return sdk.WriteTextFileResponse{}, nil
}

func (c *client) CreateTerminal(_ context.Context, p sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.commands = append(c.commands, append([]string{p.Command}, p.Args...))
	return sdk.CreateTerminalResponse{TerminalId: fmt.Sprintf("term-%d", len(c.commands))}, nil
}
func (c *client) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, nil
}
func (c *client) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return sdk.TerminalOutputResponse{Output: c.termOutput, ExitStatus: &sdk.TerminalExitStatus{ExitCode: sdk.Ptr(c.termExit)}}, nil
}
func (c *client) ReleaseTerminal(_ context.Context, p sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.released = append(c.released, p.TerminalId)
	return sdk.ReleaseTerminalResponse{}, nil
}
func (c *client) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return sdk.WaitForTerminalExitResponse{ExitCode: sdk.Ptr(c.termExit)}, nil
}

// kinds lists the sessionUpdate discriminators received so far, in order.
func (c *client) kinds() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, u := range c.updates {
		out = append(out, updateKind(u.Update))
	}
	return out
}

func (c *client) snapshot() []sdk.SessionNotification {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]sdk.SessionNotification(nil), c.updates...)
}

func updateKind(u sdk.SessionUpdate) string {
	b, _ := json.Marshal(u)
	var v struct {
		Kind string `json:"sessionUpdate"`
	}
	_ = json.Unmarshal(b, &v)
	return v.Kind
}

// agentText joins the agent message chunks received so far.
func (c *client) agentText() string {
	var b strings.Builder
	for _, u := range c.snapshot() {
		if m := u.Update.AgentMessageChunk; m != nil && m.Content.Text != nil {
			b.WriteString(m.Content.Text.Text)
		}
	}
	return b.String()
}

// connect starts a Go SDK client on the fixture and initializes it.
func (f *fixture) connect(fromSrv io.Reader, c *client, caps sdk.ClientCapabilities) *sdk.ClientSideConnection {
	f.t.Helper()
	conn := sdk.NewClientSideConnection(c, f.toSrv, fromSrv)
	conn.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if _, err := conn.Initialize(ctxFor(f.t), sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber, ClientCapabilities: caps}); err != nil {
		f.t.Fatal(err)
	}
	return conn
}

func (f *fixture) newSession(conn *sdk.ClientSideConnection) sdk.NewSessionResponse {
	f.t.Helper()
	resp, err := conn.NewSession(ctxFor(f.t), sdk.NewSessionRequest{Cwd: f.work, McpServers: []sdk.McpServer{}})
	if err != nil {
		f.t.Fatal(err)
	}
	return resp
}

func ctxFor(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func prompt(id sdk.SessionId, text string) sdk.PromptRequest {
	return sdk.PromptRequest{SessionId: id, Prompt: []sdk.ContentBlock{sdk.TextBlock(text)}}
}

func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
