package index

import (
	"bytes"
	"os"
	"path"
	"strings"
)

// languages maps file extensions to the languages the graph extracts, named as the
// tree-sitter grammars are.
var languages = map[string]string{
	".go":    "go",
	".ts":    "typescript",
	".mts":   "typescript",
	".cts":   "typescript",
	".tsx":   "tsx",
	".js":    "javascript",
	".mjs":   "javascript",
	".cjs":   "javascript",
	".jsx":   "javascript",
	".py":    "python",
	".pyi":   "python",
	".rs":    "rust",
	".java":  "java",
	".c":     "c",
	".h":     "c",
	".cc":    "cpp",
	".cpp":   "cpp",
	".cxx":   "cpp",
	".hpp":   "cpp",
	".hh":    "cpp",
	".hxx":   "cpp",
	".cs":    "csharp",
	".rb":    "ruby",
	".php":   "php",
	".kt":    "kotlin",
	".kts":   "kotlin",
	".swift": "swift",
	".m":     "objc",
	".mm":    "objc", // Objective-C++: the C++ in it is read as far as the grammar goes
	// Not code for tree-sitter: infrastructure (internal/graph/infra) and text
	// that points at files (internal/graph/textref).
	".dockerfile": "dockerfile",
	".yml":        "yaml",
	".yaml":       "yaml",
	".md":         "markdown",
	".markdown":   "markdown",
	".sh":         "shell",
	".bash":       "shell",
	".ksh":        "shell",
	".zsh":        "shell",
}

// LanguageOf names the language of a file from its name, or "" when the graph
// does not extract it. Declaration files (.d.ts) count as TypeScript; a
// Dockerfile is named Dockerfile, Containerfile, Dockerfile.<variant> or
// <name>.dockerfile.
func LanguageOf(rel string) string {
	base := strings.ToLower(path.Base(rel))
	if base == "dockerfile" || base == "containerfile" || strings.HasPrefix(base, "dockerfile.") {
		return "dockerfile"
	}
	return languages[strings.ToLower(path.Ext(rel))]
}

// shells are the interpreters whose scripts internal/graph/textref reads.
var shells = map[string]bool{"sh": true, "bash": true, "dash": true, "ksh": true, "zsh": true}

// isShellScript reports whether the file at p starts with a #! line naming a
// shell (`#!/bin/sh`, `#!/usr/bin/env bash`). Only files without an extension
// are asked: it costs a read.
func isShellScript(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 128)
	n, _ := f.Read(buf)
	line, _, _ := bytes.Cut(buf[:n], []byte("\n"))
	rest, ok := bytes.CutPrefix(line, []byte("#!"))
	if !ok {
		return false
	}
	words := strings.Fields(string(rest))
	if len(words) == 0 {
		return false
	}
	interp := path.Base(words[0])
	if interp == "env" && len(words) > 1 {
		interp = words[1]
		if interp == "-S" && len(words) > 2 {
			interp = words[2]
		}
	}
	return shells[path.Base(interp)]
}
