package sse

import (
	"net/http"
	"sync"
)

// maxIdleConnsPerHost is how many warm connections are kept to one model server.
// Sub-agents call it in parallel, and the serve layer runs many conversations at
// once: with net/http's default of 2 (or the 16 we had), a burst of 50 concurrent
// runs paid a new connection for most calls, 8 % of serve's CPU.
const maxIdleConnsPerHost = 128

// Transport is the transport every provider uses when given no HTTP client: a
// clone of http.DefaultTransport (proxy from the environment, HTTP/2) keeping more
// idle connections. Providers built for the same server, one per run in the serve
// layer, then reuse each other's warm connections.
var Transport = sync.OnceValue(func() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 4 * maxIdleConnsPerHost
	t.MaxIdleConnsPerHost = maxIdleConnsPerHost
	return t
})
