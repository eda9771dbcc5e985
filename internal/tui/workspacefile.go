package tui

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// maxPreviewFile bounds what the approval preview reads: a diff of a bigger file
// would not fit the dialog anyway (1 MiB, a judgement).
const maxPreviewFile = 1 << 20

// readWorkspaceFile reads files for the approval preview, only inside workDir (links
// followed): the preview shows context lines, and a path the model chose elsewhere
// (a key file) must not put them on screen. The tool's own checks still apply.
func readWorkspaceFile(workDir string) func(path string) (string, error) {
	return func(path string) (string, error) {
		if workDir == "" {
			return "", errors.New("no workspace")
		}
		if !filepath.IsAbs(path) {
			path = filepath.Join(workDir, path)
		}
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return "", err
		}
		root, err := filepath.EvalSymlinks(workDir)
		if err != nil {
			return "", err
		}
		if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", fmt.Errorf("%s is outside the workspace", path)
		}
		f, err := os.Open(real)
		if err != nil {
			return "", err
		}
		defer f.Close()
		b, err := io.ReadAll(io.LimitReader(f, maxPreviewFile+1))
		if err != nil {
			return "", err
		}
		if len(b) > maxPreviewFile {
			return "", fmt.Errorf("%s is over %d bytes", path, maxPreviewFile)
		}
		return string(b), nil
	}
}
