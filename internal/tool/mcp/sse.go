package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// sseTransport is the legacy HTTP+SSE transport with a stream that outlives the
// start-up deadline: the SDK ties its event stream (a long GET) to the context
// Connect receives, so the startup_timeout's context would end the session as soon
// as the server started. The deadline still bounds opening the stream.
type sseTransport struct{ sdk.SSEClientTransport }

func (t *sseTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	streamCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, cancel)
	conn, err := t.SSEClientTransport.Connect(streamCtx)
	if !stop() && err == nil {
		// ctx ended while the stream opened: it is already cancelled.
		_ = conn.Close()
		err = ctx.Err()
	}
	if err != nil {
		cancel()
		return nil, err
	}
	return &sseConn{Connection: conn, cancel: cancel}, nil
}

// sseConn ends its stream's context with the connection.
type sseConn struct {
	sdk.Connection
	cancel context.CancelFunc
}

func (c *sseConn) Close() error {
	defer c.cancel()
	return c.Connection.Close()
}
