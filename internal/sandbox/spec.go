package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/etalab-ia/albert-code/internal/sensitive"
)

// A record is one line of the launcher's spec (launcher_linux.c reads them): an
// operation and its argument.
type record struct {
	op   byte
	path string
}

// Operations of the spec.
const (
	opLandlock  = 'L' // apply Landlock
	opNoNetwork = 'N' // refuse non-Unix sockets
	opMountNS   = 'P' // make a private mount namespace for the 'O' and 'B' records
	opRead      = 'R' // read and execute below the path
	opListOnly  = 'D' // list the folder; nothing below it is readable through it
	opWrite     = 'W' // every right below the path
	opDevice    = 'F' // read and write a device file
	opReadOnly  = 'O' // bind the path read-only (mount namespace)
	opPinned    = 'B' // bind the path onto itself so it cannot be renamed away
	opPIDNS     = 'I' // a PID namespace with its own /proc, where one can be made
	opNoSocket  = 'S' // bind /dev/null over a Unix socket (mount namespace)
	opTempDir   = 'T' // the private temp dir, which the guardian removes when the agent dies
)

// devices are the device files a command may write whatever its mode.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx"}

// sharedDirs are writable in every mode: terminals and POSIX shared memory.
var sharedDirs = []string{"/dev/pts", "/dev/shm"}

func encode(rs []record) []byte {
	var b []byte
	for _, r := range rs {
		b = append(b, r.op)
		b = append(b, r.path...)
		b = append(b, 0)
	}
	return b
}

// records turns a policy into the launcher's spec for the Landlock backend.
func records(p Policy) []record {
	hidden := hiddenPaths(p.Secrets)
	rs := []record{{op: opLandlock}, {op: opPIDNS}}
	if !p.Network {
		rs = append(rs, record{op: opNoNetwork})
	}
	rs = append(rs, readRules(hidden)...)
	for _, d := range devices {
		rs = append(rs, record{opDevice, d})
	}
	for _, d := range sharedDirs {
		rs = append(rs, record{opWrite, d})
	}
	if p.TempDir != "" {
		rs = grant(rs, p.TempDir, opWrite, hidden)
		rs = append(rs, record{opTempDir, p.TempDir})
	}
	if p.Mode == WorkspaceWrite {
		for _, w := range append([]string{p.WorkDir}, p.Writable...) {
			if w != "" {
				rs = grant(rs, realPath(w), opWrite, hidden)
			}
		}
		rs = append(rs, controlRecords(realPath(p.WorkDir), p.ControlRoots)...)
		for _, sock := range sessionSockets(netUnix, writableRoots(p)) {
			rs = append(rs, record{opNoSocket, sock})
		}
	}
	return rs
}

// writableRoots are the folders a workspace-write command may write, links resolved.
func writableRoots(p Policy) []string {
	out := []string{realPath(p.TempDir), realPath(p.WorkDir)}
	for _, w := range p.Writable {
		out = append(out, realPath(w))
	}
	return out
}

// controlRecords keep the existing control files of the workspace and of the
// nested roots read-only, and each .git folder pinned so it cannot be renamed away
// and replaced by a folder with another config.
func controlRecords(workDir string, nested []string) []record {
	if workDir == "" {
		return nil
	}
	rs := []record{{op: opMountNS}}
	for _, root := range append([]string{workDir}, nested...) {
		if fi, err := os.Lstat(filepath.Join(root, ".git")); err == nil && fi.IsDir() {
			rs = append(rs, record{opPinned, filepath.Join(root, ".git")})
		}
		for _, rel := range sensitive.TopLevelControl {
			rs = append(rs, record{opReadOnly, filepath.Join(root, rel)})
		}
		if hooks := sensitive.HooksDir(root); hooks != "" {
			rs = append(rs, record{opReadOnly, hooks})
		}
	}
	return rs
}

// readRules are the rules that make everything readable but hidden, from a cache
// kept while none of the folders it listed has changed: listing them for every
// command cost more than the rest of the sandbox together.
func readRules(hidden []string) []record {
	readCache.Lock()
	defer readCache.Unlock()
	key := strings.Join(hidden, "\x00")
	if readCache.key == key && readCache.rules != nil && unchanged(readCache.listed) {
		return readCache.rules
	}
	listed := map[string]time.Time{}
	rules := grantListing(nil, "/", opRead, hidden, listed)
	readCache.key, readCache.rules, readCache.listed = key, rules, listed
	return rules
}

var readCache struct {
	sync.Mutex
	key    string
	rules  []record
	listed map[string]time.Time // the folders listed, with their modification times
}

// unchanged reports whether every listed folder still has the same modification
// time, which an entry added, removed or renamed in it changes.
func unchanged(listed map[string]time.Time) bool {
	for dir, mtime := range listed {
		fi, err := os.Stat(dir)
		if err != nil || !fi.ModTime().Equal(mtime) {
			return false
		}
	}
	return true
}

// grant appends rules giving op on dir and everything below it but the hidden
// paths. Landlock can only add rights, never take them away below a rule, so a
// folder that holds a hidden path is listed instead, and each of its entries but
// the hidden one gets its own rule. A write root that holds a secret (the agent run
// in the home folder) therefore cannot get new files at its top level.
func grant(rs []record, dir string, op byte, hidden []string) []record {
	return grantListing(rs, dir, op, hidden, nil)
}

// grantListing is grant, noting in listed (when not nil) each folder it listed.
func grantListing(rs []record, dir string, op byte, hidden []string, listed map[string]time.Time) []record {
	holds := false
	for _, h := range hidden {
		if h == dir || sensitive.Within(h, dir) {
			return rs // dir is hidden, or lies in a hidden folder
		}
		if sensitive.Within(dir, h) {
			holds = true
		}
	}
	if !holds {
		return append(rs, record{op, dir})
	}
	rs = append(rs, record{opListOnly, dir})
	if listed != nil {
		fi, err := os.Stat(dir)
		if err != nil {
			return rs
		}
		listed[dir] = fi.ModTime()
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return rs
	}
	for _, e := range entries {
		if e.Type()&os.ModeSymlink != 0 {
			continue // a link grants nothing: its target's own rules decide
		}
		rs = grantListing(rs, filepath.Join(dir, e.Name()), op, hidden, listed)
	}
	return rs
}

// hiddenPaths are the secrets that exist, as named and with links resolved.
func hiddenPaths(secrets []string) []string {
	var out []string
	for _, s := range secrets {
		if _, err := os.Lstat(s); err != nil {
			continue
		}
		out = append(out, filepath.Clean(s))
		if r, err := filepath.EvalSymlinks(s); err == nil {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// realPath resolves links where the path exists, since Landlock rules attach to
// inodes and the launcher opens paths without following a final link.
func realPath(p string) string {
	if p == "" {
		return ""
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return abs
}
