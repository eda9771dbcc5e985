package supervisor

import "fmt"

// capture keeps the first and the last bytes of a stream within a limit: the head
// holds how an agent started (its session record), the tail how it ended (the final
// result, the error on stderr). What falls between is counted, not kept.
type capture struct {
	name             string
	head             []byte
	tail             []byte // ring buffer of tailCap bytes once full
	start            int    // index of the oldest byte in tail when full
	headCap, tailCap int
	total            int64
}

func newCapture(name string, limit int) *capture {
	h := limit / 2
	return &capture{name: name, headCap: h, tailCap: limit - h}
}

func (c *capture) Write(p []byte) {
	c.total += int64(len(p))
	if n := min(c.headCap-len(c.head), len(p)); n > 0 {
		c.head = append(c.head, p[:n]...)
		p = p[n:]
	}
	if c.tailCap == 0 || len(p) == 0 {
		return
	}
	if len(p) >= c.tailCap {
		c.tail = append(c.tail[:0], p[len(p)-c.tailCap:]...)
		c.start = 0
		return
	}
	if room := c.tailCap - len(c.tail); room > 0 {
		n := min(room, len(p))
		c.tail = append(c.tail, p[:n]...)
		p = p[n:]
	}
	for len(p) > 0 { // the ring is full: overwrite the oldest bytes
		n := copy(c.tail[c.start:], p)
		p = p[n:]
		c.start = (c.start + n) % c.tailCap
	}
}

func (c *capture) output() Output {
	kept := int64(len(c.head) + len(c.tail))
	out := Output{Total: c.total, Cut: c.total - kept}
	data := make([]byte, 0, kept+80)
	data = append(data, c.head...)
	if out.Cut > 0 {
		data = fmt.Appendf(data, "\n[albert-code: %d bytes of %s cut here]\n", out.Cut, c.name)
	}
	data = append(data, c.tail[c.start:]...)
	data = append(data, c.tail[:c.start]...)
	out.Data = data
	return out
}
