package mcp

import (
	"context"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/tool"
)

// BenchmarkCallKeptSession is one tool call to a stdio server whose session is kept
// for the whole run, as the agent does: the Go fake server, then server-everything's
// echo (Node).
func BenchmarkCallKeptSession(b *testing.B) {
	b.Run("go", func(b *testing.B) { benchKept(b, fakeServer(b, "fake", "normal"), "fake_count", `{}`) })
	b.Run("everything", func(b *testing.B) {
		benchKept(b, stdioServer("ev", npmBin(b, "mcp-server-everything"), "stdio"), "ev_echo", `{"message":"x"}`)
	})
}

func benchKept(b *testing.B, srv config.MCPServer, name, args string) {
	set := Start(context.Background(), []config.MCPServer{srv}, Options{})
	defer set.Close()
	var t tool.Tool
	for _, c := range set.Tools() {
		if c.Info().Name == name {
			t = c
		}
	}
	ctx := context.Background()
	for b.Loop() {
		if _, err := t.Run(ctx, tool.Call{Args: []byte(args)}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCallSpawnPerCall is the original's way (notes §2.9): a new process and
// handshake for every call.
func BenchmarkCallSpawnPerCall(b *testing.B) {
	b.Run("go", func(b *testing.B) { benchSpawn(b, fakeServer(b, "fake", "normal"), "fake_count", `{}`) })
	b.Run("everything", func(b *testing.B) {
		benchSpawn(b, stdioServer("ev", npmBin(b, "mcp-server-everything"), "stdio"), "ev_echo", `{"message":"x"}`)
	})
}

func benchSpawn(b *testing.B, srv config.MCPServer, name, args string) {
	ctx := context.Background()
	for b.Loop() {
		set := Start(ctx, []config.MCPServer{srv}, Options{ShutdownGrace: time.Second})
		var t tool.Tool
		for _, c := range set.Tools() {
			if c.Info().Name == name {
				t = c
			}
		}
		if _, err := t.Run(ctx, tool.Call{Args: []byte(args)}); err != nil {
			b.Fatal(err)
		}
		_ = set.Close()
	}
}
