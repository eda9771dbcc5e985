package tomlfile

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"sync"

	toml "github.com/pelletier/go-toml/v2"
)

// Decode decodes data, read from path, into v (a pointer to a struct whose fields
// carry `toml` tags) and returns where each key is written. Keys that v has no field
// for are errors: a silently ignored typo is a setting the user believes is on. Every
// error is an *Error, or several joined with errors.Join.
func Decode(path string, data []byte, v any) (Lines, error) {
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return nil, convert(path, err, reflect.TypeOf(v))
	}
	return indexLines(data), nil
}

func convert(path string, err error, t reflect.Type) error {
	var missing *toml.StrictMissingError
	if errors.As(err, &missing) {
		errs := make([]error, 0, len(missing.Errors))
		for i := range missing.Errors {
			de := &missing.Errors[i]
			line, col := de.Position()
			key := de.Key()
			name := key[len(key)-1]
			errs = append(errs, &Error{
				Where: path, Line: line, Column: col, Key: strings.Join(key, "."),
				Msg:        "unknown key " + fmt.Sprintf("%q", name),
				Suggestion: Suggest(name, FieldNames(t, key[:len(key)-1])),
			})
		}
		return errors.Join(errs...)
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, col := de.Position()
		return &Error{Where: path, Line: line, Column: col, Key: strings.Join(de.Key(), "."), Msg: humanize(de.Error())}
	}
	return fmt.Errorf("%s: %w", path, err)
}

// typeErr is compiled on first use: only a bad config file needs it, and compiling
// it at package init cost every start 0.8 ms (GODEBUG=inittrace=1).
var typeErr = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`cannot decode TOML (\w+) into .* of type (\S+)$`)
})

// humanize rewrites go-toml's type errors, which name Go struct fields, in terms a
// config author knows.
func humanize(msg string) string {
	msg = strings.TrimPrefix(msg, "toml: ")
	m := typeErr().FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	want := map[string]string{
		"string": "a string", "int": "an integer", "int64": "an integer", "float64": "a number",
		"bool": "true or false", "[]string": "an array of strings", "map[string]string": "a table of strings",
	}[strings.TrimLeft(m[2], "*")]
	if want == "" {
		want = "a " + strings.TrimLeft(m[2], "*")
	}
	return fmt.Sprintf("expected %s, found a TOML %s", want, m[1])
}

// FieldNames lists the TOML keys allowed under parent in the struct type t, for
// "did you mean" suggestions. Map levels accept any key and are skipped over.
func FieldNames(t reflect.Type, parent []string) []string {
	for _, part := range parent {
		t = deref(t)
		switch t.Kind() {
		case reflect.Map:
			t = t.Elem()
		case reflect.Struct:
			f, ok := fieldByTag(t, part)
			if !ok {
				return nil
			}
			t = f.Type
		default:
			return nil
		}
	}
	t = deref(t)
	if t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for i := range t.NumField() {
		if name := tagName(t.Field(i)); name != "" {
			names = append(names, name)
		}
	}
	return names
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	return t
}

func fieldByTag(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		if tagName(t.Field(i)) == name {
			return t.Field(i), true
		}
	}
	return reflect.StructField{}, false
}

func tagName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	if name == "-" || !f.IsExported() {
		return ""
	}
	return name
}

// DecodeLoose is Decode without the unknown-key check, for files in a foreign schema
// (a Mistral Vibe .vibe.toml) where only some keys are understood.
func DecodeLoose(path string, data []byte, v any) (Lines, error) {
	if err := toml.NewDecoder(bytes.NewReader(data)).Decode(v); err != nil {
		return nil, convert(path, err, reflect.TypeOf(v))
	}
	return indexLines(data), nil
}
