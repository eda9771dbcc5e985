package api

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// connServer serves a tiny handler through NewHTTPServer on 127.0.0.1.
func connServer(t *testing.T, lim ConnLimits) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") })
	mux.HandleFunc("POST /echo", func(w http.ResponseWriter, r *http.Request) {
		data, err := io.ReadAll(r.Body)
		if err != nil {
			writeBodyError(w, err)
			return
		}
		w.Write(data)
	})
	// /stream reads its body, then answers in pieces for a while: longer than the
	// body timeout, which must not cut it.
	mux.HandleFunc("/stream", func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			writeBodyError(w, err)
			return
		}
		for i := range 6 {
			fmt.Fprintf(w, "piece %d\n", i)
			http.NewResponseController(w).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
		io.WriteString(w, "end\n")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs, ln := NewHTTPServer(mux, ln, lim)
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

func dialFrom(t *testing.T, local, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{Timeout: 5 * time.Second}
	if local != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(local)}
	}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// get sends one request on c and reads its answer.
func get(t *testing.T, c net.Conn, br *bufio.Reader) error {
	t.Helper()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		return err
	}
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return err
}

// closedWithin reports whether the server closes c within d.
func closedWithin(c net.Conn, d time.Duration) (bool, time.Duration) {
	start := time.Now()
	c.SetReadDeadline(start.Add(d))
	_, err := c.Read(make([]byte, 1))
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return false, time.Since(start)
	}
	return err != nil, time.Since(start)
}

func TestIdleConnectionsAreClosed(t *testing.T) {
	t.Parallel()
	addr := connServer(t, ConnLimits{KeepAliveTimeout: 300 * time.Millisecond, ReadHeaderTimeout: 300 * time.Millisecond})
	// A keep-alive connection after an unauthenticated GET /healthz.
	c := dialFrom(t, "", addr)
	if err := get(t, c, bufio.NewReader(c)); err != nil {
		t.Fatal(err)
	}
	if closed, after := closedWithin(c, 5*time.Second); !closed || after > 3*time.Second {
		t.Errorf("idle keep-alive: closed %v after %s, want closed after about 300ms", closed, after)
	}
	// A connection that never sends a header.
	silent := dialFrom(t, "", addr)
	if closed, after := closedWithin(silent, 5*time.Second); !closed || after > 3*time.Second {
		t.Errorf("silent connection: closed %v after %s", closed, after)
	}
}

func TestSlowBodyIsCut(t *testing.T) {
	t.Parallel()
	addr := connServer(t, ConnLimits{BodyTimeout: 300 * time.Millisecond})
	c := dialFrom(t, "", addr)
	// Ten bytes of a hundred promised, then nothing: a slowloris body.
	io.WriteString(c, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123456789")
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	start := time.Now()
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer to a slow body after %s: %v", time.Since(start), err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(body), "ALBERT_CODE_API_MODE_BODY_TIMEOUT") {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("cut after %s, want about 300ms", d)
	}
}

// The body's deadline is lifted once it is read: an answer that streams past it,
// after a body or without one, arrives whole.
func TestStreamingOutlivesTheBodyTimeout(t *testing.T) {
	t.Parallel()
	addr := connServer(t, ConnLimits{BodyTimeout: 150 * time.Millisecond})
	for _, req := range []string{
		"POST /stream HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello",
		"GET /stream HTTP/1.1\r\nHost: x\r\n\r\n",
	} {
		c := dialFrom(t, "", addr)
		c.SetDeadline(time.Now().Add(10 * time.Second))
		io.WriteString(c, req)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil || !strings.HasSuffix(string(body), "end\n") {
			t.Errorf("%q: %q, %v", strings.Fields(req)[0], body, err)
		}
	}
}

func TestConnectionsPerClientAreCapped(t *testing.T) {
	t.Parallel()
	const capN = 3
	addr := connServer(t, ConnLimits{MaxConnsPerClient: capN})
	var held []net.Conn
	for range capN {
		c := dialFrom(t, "127.0.0.1", addr)
		if err := get(t, c, bufio.NewReader(c)); err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	over := dialFrom(t, "127.0.0.1", addr)
	if err := get(t, over, bufio.NewReader(over)); err == nil {
		t.Errorf("connection %d from one address was served", capN+1)
	}
	// Another address is not held back by the first one's connections.
	other := dialFrom(t, "127.0.0.2", addr)
	if err := get(t, other, bufio.NewReader(other)); err != nil {
		t.Errorf("from 127.0.0.2: %v", err)
	}
	// A closed connection frees its place.
	held[0].Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		c := dialFrom(t, "127.0.0.1", addr)
		err := get(t, c, bufio.NewReader(c))
		if err == nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatalf("no place freed after a close: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
