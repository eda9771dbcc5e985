package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// The file tools work under the workspace root through the same operations as
// /files (workspace.List, Write, Delete: paths checked, then I/O through
// os.Root). Their errors are tool errors: the model reads them.

// PathIn names a file relative to the workspace root.
type PathIn struct {
	Path string `json:"path" jsonschema:"a file relative to the workspace root, such as project-a/main.go"`
}

// ListIn is list_files's input: the path is optional.
type ListIn struct {
	Path string `json:"path,omitempty" jsonschema:"a folder relative to the workspace root; empty or . is the root"`
}

// WriteIn is write_file's input.
type WriteIn struct {
	Path    string `json:"path" jsonschema:"the file to write, relative to the workspace root; its folders are created"`
	Content string `json:"content" jsonschema:"the whole new content of the file, as text"`
}

// ListOut is list_files's answer.
type ListOut struct {
	Path    string            `json:"path"`
	Entries []workspace.Entry `json:"entries"`
}

// ReadOut is read_file's answer.
type ReadOut struct {
	Path    string `json:"path"`
	Size    int64  `json:"size"`
	Content string `json:"content"`
	// Binary says the file is not UTF-8 text: invalid bytes were replaced.
	Binary bool `json:"binary,omitempty"`
}

// DoneOut answers write_file and delete_file.
type DoneOut struct {
	Status string `json:"status"`
	Path   string `json:"path"`
	Size   int64  `json:"size,omitempty"`
}

// inRoot checks p and returns it relative to the root ("." for the root itself)
// with the root opened for one operation; the caller closes it.
func (s *Server) inRoot(p string, required bool) (string, *os.Root, error) {
	if required && strings.Trim(p, "/") == "" {
		return "", nil, errors.New("path is required: name a file relative to the workspace root")
	}
	rel, err := s.opts.Root.Rel(p)
	if err != nil {
		return "", nil, err
	}
	root, err := s.opts.Root.OpenFS()
	return rel, root, err
}

// fsError names the path of a failed operation in words a model can act on.
func fsError(op, rel string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s %s: no such file or folder", op, rel)
	default:
		return fmt.Errorf("%s %s: %w", op, rel, err)
	}
}

func (s *Server) listFiles(_ context.Context, _ *mcpsdk.CallToolRequest, in ListIn) (*mcpsdk.CallToolResult, ListOut, error) {
	rel, root, err := s.inRoot(in.Path, false)
	if err != nil {
		return nil, ListOut{}, err
	}
	defer root.Close()
	entries, err := workspace.List(root, rel)
	if err != nil {
		return nil, ListOut{}, fsError("list", rel, err)
	}
	return nil, ListOut{Path: "/" + strings.TrimPrefix(rel, "."), Entries: entries}, nil
}

func (s *Server) readFile(_ context.Context, _ *mcpsdk.CallToolRequest, in PathIn) (*mcpsdk.CallToolResult, ReadOut, error) {
	rel, root, err := s.inRoot(in.Path, true)
	if err != nil {
		return nil, ReadOut{}, err
	}
	defer root.Close()
	f, err := root.Open(rel)
	if err != nil {
		return nil, ReadOut{}, fsError("read", rel, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, ReadOut{}, fsError("read", rel, err)
	}
	if info.IsDir() {
		return nil, ReadOut{}, fmt.Errorf("read %s: it is a folder: use list_files", rel)
	}
	if info.Size() > s.opts.MaxFile {
		return nil, ReadOut{}, fmt.Errorf("read %s: %d bytes, more than the %d a tool answer carries: fetch it with GET /files/%s", rel, info.Size(), s.opts.MaxFile, rel)
	}
	data, err := io.ReadAll(io.LimitReader(f, s.opts.MaxFile+1))
	if err != nil {
		return nil, ReadOut{}, fsError("read", rel, err)
	}
	out := ReadOut{Path: rel, Size: int64(len(data)), Content: string(data)}
	if !utf8.Valid(data) {
		out.Content, out.Binary = strings.ToValidUTF8(out.Content, "\uFFFD"), true
	}
	return nil, out, nil
}

// writeFile writes to a temporary file renamed into place, so a reader never sees
// half a file.
func (s *Server) writeFile(_ context.Context, _ *mcpsdk.CallToolRequest, in WriteIn) (*mcpsdk.CallToolResult, DoneOut, error) {
	rel, root, err := s.inRoot(in.Path, true)
	if err != nil {
		return nil, DoneOut{}, err
	}
	defer root.Close()
	n, err := workspace.Write(root, rel, strings.NewReader(in.Content))
	switch {
	case errors.Is(err, workspace.ErrFolder):
		return nil, DoneOut{}, fmt.Errorf("write %s: it is a folder: name a file", rel)
	case err != nil:
		return nil, DoneOut{}, fsError("write", rel, err)
	}
	return nil, DoneOut{Status: "ok", Path: rel, Size: n}, nil
}

// deleteFile removes a file or a link; folders are refused.
func (s *Server) deleteFile(_ context.Context, _ *mcpsdk.CallToolRequest, in PathIn) (*mcpsdk.CallToolResult, DoneOut, error) {
	rel, root, err := s.inRoot(in.Path, true)
	if err != nil {
		return nil, DoneOut{}, err
	}
	defer root.Close()
	switch err := workspace.Delete(root, rel); {
	case errors.Is(err, workspace.ErrFolder):
		return nil, DoneOut{}, fmt.Errorf("delete %s: it is a folder, which delete_file refuses: delete its files", rel)
	case err != nil:
		return nil, DoneOut{}, fsError("delete", rel, err)
	}
	return nil, DoneOut{Status: "ok", Path: rel}, nil
}
