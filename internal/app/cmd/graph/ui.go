package graph

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/store"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
	"github.com/etalab-ia/albert-code/internal/graph/webmap"
)

// UIOptions are `graph ui`'s.
type UIOptions struct {
	f    *cmdutil.Factory
	Repo string
	// Addr is where the map listens; the default is a free port on this machine.
	Addr string
	// Open starts the desktop's browser on the map.
	Open bool
}

// NewCmdUI is `graph ui`; runF replaces the server.
func NewCmdUI(f *cmdutil.Factory, runF func(*UIOptions) error) *cobra.Command {
	opts := &UIOptions{f: f}
	cmd := &cobra.Command{
		Use:   "ui",
		Short: "Serve a map of the code graph in the browser (communities, callers and callees, the working tree's changes)",
		Long: `Serve a map of the repository's code graph on this machine and print its URL. The
URL carries a random token once: the first visit trades it for a cookie, so other users
of the machine cannot read the map. Without an index, the page offers to build it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.Repo = repoFlag(cmd)
			if runF != nil {
				return runF(opts)
			}
			return uiRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Addr, "addr", "127.0.0.1:0", "address to listen on (default: a free port on this machine only)")
	cmd.Flags().BoolVar(&opts.Open, "open", false, "open the map in the default browser")
	return cmd
}

// uiRun serves the map until ctx ends or SIGINT or SIGTERM arrives.
func uiRun(ctx context.Context, opts *UIOptions) error {
	root, err := repoRoot(opts.f, opts.Repo)
	if err != nil {
		return err
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return cmdutil.UsageError("graph ui %s: not a directory", root)
	}
	m, err := webmap.New(webmap.Options{Root: root, Build: func(ctx context.Context) error { return buildGraphIndex(ctx, root) }})
	if err != nil {
		return err
	}
	defer m.Close()
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return cmdutil.UsageError("graph ui: listen on %s: %v (choose another with --addr)", opts.Addr, err)
	}
	token := webmap.NewToken()
	srv := &http.Server{Handler: webmap.RequireToken(token, m), ReadHeaderTimeout: 10 * time.Second}
	url := fmt.Sprintf("http://%s/?token=%s", ln.Addr(), token)
	fmt.Fprintf(opts.f.IO.Out, "map of %s at %s\n", root, url)
	if opts.Open {
		if err := openBrowser(url); err != nil {
			fmt.Fprintf(opts.f.IO.ErrOut, "albert-code: could not open a browser (%v): open the URL above\n", err)
		}
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// buildGraphIndex indexes root as `graph index` does, for the map's button.
func buildGraphIndex(ctx context.Context, root string) error {
	path, err := dbPath(root, true)
	if err != nil {
		return err
	}
	st, _, err := store.OpenOrRebuild(path)
	if err != nil {
		return err
	}
	defer st.Close()
	_, err = index.Run(ctx, root, st, index.Options{Go: golang.DefaultOptions(), Extract: treesitter.Extractor{}.Extract})
	return err
}

// openBrowser starts the desktop's browser on url without waiting for it.
func openBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }() // reap it; the browser outlives us
	return nil
}
