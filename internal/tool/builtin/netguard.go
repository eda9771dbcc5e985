package builtin

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// refusedAddress is the error of a connection refused because of where it was going.
type refusedAddress struct {
	addr string
	kind string // loopback, private, link-local…
}

func (e *refusedAddress) Error() string { return fmt.Sprintf("%s is a %s address", e.addr, e.kind) }

// sharedAddressSpace is RFC 6598's carrier-grade NAT range: not "private" to net/netip,
// but it reaches provider-internal hosts all the same.
var sharedAddressSpace = netip.MustParsePrefix("100.64.0.0/10")

// checkPublic refuses the address a socket is about to connect to unless it is a
// public unicast address. Running at dial time, after DNS resolution and on every
// redirect hop, it cannot be bypassed by a hostname that resolves to 127.0.0.1
// (DNS rebinding) or a redirect to http://169.254.169.254.
func checkPublic(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &refusedAddress{addr: address, kind: "unparsable"}
	}
	ip := ap.Addr().Unmap()
	var kind string
	switch {
	case ip.IsLoopback():
		kind = "loopback"
	case ip.IsPrivate(), sharedAddressSpace.Contains(ip):
		kind = "private"
	case ip.IsLinkLocalUnicast(), ip.IsLinkLocalMulticast():
		kind = "link-local"
	case ip.IsUnspecified():
		kind = "unspecified"
	case ip.IsMulticast(), ip.IsInterfaceLocalMulticast():
		kind = "multicast"
	default:
		return nil
	}
	return &refusedAddress{addr: ip.String(), kind: kind}
}

// maxRedirects is lower than net/http's 10: a page that needs more is broken.
const maxRedirects = 5

// newFetchClient returns an HTTP client for model-chosen URLs: no proxy from the
// environment (it would hide the real destination from checkPublic), and, unless
// allowPrivate, a dialer that refuses non-public addresses.
func newFetchClient(allowPrivate bool) *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second}
	if !allowPrivate {
		dialer.Control = checkPublic
	}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 30 * time.Second,
		MaxIdleConns:          10,
		IdleConnTimeout:       30 * time.Second,
		ForceAttemptHTTP2:     true,
	}
	return &http.Client{
		Transport: transport,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= maxRedirects {
				return fmt.Errorf("stopped after %d redirects", maxRedirects)
			}
			if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
				return fmt.Errorf("redirect to unsupported scheme %q", req.URL.Scheme)
			}
			return nil
		},
	}
}
