package golang

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/gcexportdata"
)

// exportSuffix names the export data files Update writes.
const exportSuffix = ".gox"

// readExport reads the export data of dep.PkgPath from file into view: the go
// command's files (archives) or the ones writeExport wrote.
func readExport(fset *token.FileSet, view map[string]*types.Package, file, pkgPath string) (*types.Package, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	if strings.HasSuffix(file, exportSuffix) {
		return gcexportdata.Read(br, fset, view, pkgPath)
	}
	// The go command's export files are still archives (Go 1.26: "!<arch>"), which
	// only NewReader opens; go/packages reads them the same way.
	//lint:ignore SA1019 no replacement reads archive export data before Go 1.29
	r, err := gcexportdata.NewReader(br)
	if err != nil {
		return nil, err
	}
	return gcexportdata.Read(r, fset, view, pkgPath)
}

// writeExport writes pkg's export data into dir, named after its content so that
// a file is never rewritten in place (the last saved snapshot may still name the
// previous one), and returns the file's path.
func writeExport(dir string, fset *token.FileSet, pkg *types.Package) (string, error) {
	var buf bytes.Buffer
	if err := gcexportdata.Write(&buf, fset, pkg); err != nil {
		return "", err
	}
	sum := sha256.Sum256(append([]byte(pkg.Path()+"\x00"), buf.Bytes()...))
	name := filepath.Join(dir, hex.EncodeToString(sum[:12])+exportSuffix)
	if _, err := os.Stat(name); err == nil {
		return name, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, "tmp-*")
	if err != nil {
		return "", err
	}
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return name, nil
}

// CleanExports removes from dir the export data files Update wrote that snap (the
// snapshot the store holds; nil when it has none) does not name any more.
func CleanExports(dir string, snap *Snapshot) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	used := map[string]bool{}
	if snap != nil {
		for _, v := range snap.Variants {
			used[filepath.Base(v.Export)] = true
			for _, imp := range v.Imports {
				used[filepath.Base(imp.Export)] = true
			}
		}
	}
	for _, e := range entries {
		name := e.Name()
		if !used[name] && (strings.HasSuffix(name, exportSuffix) || strings.HasPrefix(name, "tmp-")) {
			os.Remove(filepath.Join(dir, name))
		}
	}
}
