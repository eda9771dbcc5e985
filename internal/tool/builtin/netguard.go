package builtin

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"syscall"
	"time"
)

// allowPrivateSetting is what lifts the guard, named in every refusal.
const allowPrivateSetting = "web_fetch.allow_private = true in the configuration"

// refusedAddress is the error of a connection refused because of where it was going.
type refusedAddress struct {
	addr string
	kind string // loopback, private, link-local, this machine's own…
}

func (e *refusedAddress) Error() string {
	what := "a " + e.kind + " address"
	switch {
	case e.kind == ownKind:
		what = "an address of this machine's own interfaces"
	case strings.ContainsRune("aeiouAEIOU", rune(e.kind[0])):
		what = "an " + e.kind + " address"
	}
	return fmt.Sprintf("%s is %s (set %s to allow it)", e.addr, what, allowPrivateSetting)
}

const ownKind = "own"

// specialRanges are not public unicast destinations, yet netip's IsPrivate,
// IsLoopback and the like do not cover them (IANA special-purpose registries).
var specialRanges = []struct {
	prefix netip.Prefix
	kind   string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "this-network (RFC 1122)"},
	{netip.MustParsePrefix("100.64.0.0/10"), "private (carrier-grade NAT, RFC 6598)"},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol assignment (RFC 6890)"},
	{netip.MustParsePrefix("192.0.2.0/24"), "documentation (RFC 5737)"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking (RFC 2544)"},
	{netip.MustParsePrefix("198.51.100.0/24"), "documentation (RFC 5737)"},
	{netip.MustParsePrefix("203.0.113.0/24"), "documentation (RFC 5737)"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved (RFC 1112)"},
	{netip.MustParsePrefix("::/96"), "IPv4-compatible (deprecated, RFC 4291)"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "local NAT64 (RFC 8215)"},
	{netip.MustParsePrefix("100::/64"), "discard-only (RFC 6666)"},
	{netip.MustParsePrefix("2001:db8::/32"), "documentation (RFC 3849)"},
}

// Prefixes whose addresses carry an IPv4 address that the packet reaches in the end.
var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96") // RFC 6052: the last 32 bits
	sixToFour = netip.MustParsePrefix("2002::/16")    // RFC 3056: bits 16 to 48
)

// netGuard refuses connections to any address but a public unicast one that is
// not the machine's own. It runs as the dialer's Control, at dial time: after DNS,
// on every redirect hop, so neither a name that resolves to 127.0.0.1 (DNS
// rebinding) nor a redirect to http://169.254.169.254 gets past it.
type netGuard struct {
	// ownAddrs lists the addresses of the machine's interfaces, read at each dial
	// (an address may be added at any time); net.InterfaceAddrs in production.
	ownAddrs func() ([]net.Addr, error)
}

func (g netGuard) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &refusedAddress{addr: address, kind: "unparsable"}
	}
	ip := ap.Addr().WithZone("").Unmap() // an IPv4-mapped address is judged as the IPv4 one
	if kind := classify(ip); kind != "" {
		return &refusedAddress{addr: ip.String(), kind: kind}
	}
	for _, embedded := range embeddedIPv4(ip) {
		if kind := classify(embedded); kind != "" {
			return &refusedAddress{addr: ip.String(), kind: fmt.Sprintf("%s-mapped %s", mappingName(ip), kind)}
		}
	}
	addrs, err := g.ownAddrs()
	if err != nil {
		// Without the list, a connection to the machine itself cannot be ruled out.
		return &refusedAddress{addr: ip.String(), kind: "unchecked (the machine's own addresses could not be read: " + err.Error() + ")"}
	}
	for _, a := range addrs {
		own, ok := interfaceIP(a)
		if !ok {
			continue
		}
		if own == ip || slices.Contains(embeddedIPv4(ip), own) {
			return &refusedAddress{addr: ip.String(), kind: ownKind}
		}
	}
	return nil
}

// classify names why ip is not a public unicast address, or returns "".
func classify(ip netip.Addr) string {
	switch {
	case ip.IsLoopback():
		return "loopback"
	case ip.IsPrivate():
		return "private"
	case ip.IsLinkLocalUnicast(), ip.IsLinkLocalMulticast():
		return "link-local"
	case ip.IsUnspecified():
		return "unspecified"
	case ip.IsMulticast(), ip.IsInterfaceLocalMulticast():
		return "multicast"
	case ip == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return "broadcast"
	}
	for _, r := range specialRanges {
		if r.prefix.Contains(ip) {
			return r.kind
		}
	}
	return ""
}

// embeddedIPv4 returns the IPv4 addresses a NAT64 or 6to4 address leads to.
func embeddedIPv4(ip netip.Addr) []netip.Addr {
	if !ip.Is6() {
		return nil
	}
	b := ip.As16()
	switch {
	case nat64.Contains(ip):
		return []netip.Addr{netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})}
	case sixToFour.Contains(ip):
		return []netip.Addr{netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})}
	}
	return nil
}

func mappingName(ip netip.Addr) string {
	if nat64.Contains(ip) {
		return "NAT64"
	}
	return "6to4"
}

func interfaceIP(a net.Addr) (netip.Addr, bool) {
	var ip net.IP
	switch v := a.(type) {
	case *net.IPNet:
		ip = v.IP
	case *net.IPAddr:
		ip = v.IP
	default:
		return netip.Addr{}, false
	}
	addr, ok := netip.AddrFromSlice(ip)
	return addr.Unmap(), ok
}

// maxRedirects is lower than net/http's 10: a page that needs more is broken.
const maxRedirects = 5

// newFetchClient returns an HTTP client for model-chosen URLs: no proxy from the
// environment (it would hide the real destination from the guard), and, unless
// allowPrivate, a dialer that refuses every address but public ones not of this
// machine.
func newFetchClient(allowPrivate bool) *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second}
	if !allowPrivate {
		dialer.Control = netGuard{ownAddrs: net.InterfaceAddrs}.control
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
