package config

import "strconv"

// SourceKind says which layer set a value.
type SourceKind int

const (
	SourceDefault SourceKind = iota
	SourceFile
	SourceEnv
	SourceFlag
)

// Source is where one value came from.
type Source struct {
	Kind SourceKind
	// Name is the file path, the environment variable or the flag (with its dashes).
	Name string
	// Line is the line in a file, 0 when unknown.
	Line int
}

func (s Source) String() string {
	switch s.Kind {
	case SourceFile:
		if s.Line > 0 {
			return s.Name + ":" + strconv.Itoa(s.Line)
		}
		return s.Name
	case SourceEnv:
		return "env " + s.Name
	case SourceFlag:
		return "flag " + s.Name
	default:
		return "default"
	}
}
