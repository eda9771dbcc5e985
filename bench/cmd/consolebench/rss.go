package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/chromedp/chromedp"
)

// renderersRSS sums the resident memory of the renderer processes under the
// browser of tab (Linux /proc): the page's whole memory, DOM and layout
// included, which the JS heap leaves out.
func renderersRSS(tab context.Context) int64 {
	c := chromedp.FromContext(tab)
	if c == nil || c.Browser == nil || c.Browser.Process() == nil {
		return 0
	}
	root := c.Browser.Process().Pid
	parent := map[int]int{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range stats {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...; comm may hold spaces, so read after its ")".
		i := bytes.LastIndexByte(data, ')')
		fields := strings.Fields(string(data[i+1:]))
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		if len(fields) > 1 {
			parent[pid], _ = strconv.Atoi(fields[1])
		}
	}
	var total int64
	for pid := range parent {
		if !descends(pid, root, parent) {
			continue
		}
		cmd, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		if !bytes.Contains(cmd, []byte("--type=renderer")) {
			continue
		}
		status, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
		for _, line := range strings.Split(string(status), "\n") {
			if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
				total += kb << 10
			}
		}
	}
	return total
}

func descends(pid, root int, parent map[int]int) bool {
	for range 64 {
		if pid == root {
			return true
		}
		next, ok := parent[pid]
		if !ok || next == pid || next <= 1 {
			return false
		}
		pid = next
	}
	return false
}
