// Package jsonkeys finds a key given twice in one object of a JSON document.
// encoding/json keeps the last of two equal keys without a word, so a body such as
// {"workspace":"a","workspace":"../b"} means one thing to a proxy that reads the
// first and another to us; serve refuses such bodies instead.
package jsonkeys

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// DuplicateError names a key given twice and the object that holds it.
type DuplicateError struct {
	// Key is the key as decoded (escapes resolved, so "a" and "\u0061" are equal).
	Key string
	// Path is where the object is: "" for the top level, else such as
	// "messages[2]" or "env.inner".
	Path string
}

func (e *DuplicateError) Error() string {
	where := "the top-level object"
	if e.Path != "" {
		where = "the object at " + e.Path
	}
	return fmt.Sprintf("key %q is given twice in %s: send each key once", e.Key, where)
}

// frame is one open object or array of the walk. Its path is built only for an
// error: built for every frame, a document nested d deep cost d² bytes and time
// (a 20 KB body 9,999 deep, which encoding/json accepts, held 150 MB for 0.3 s).
type frame struct {
	parent *frame
	step   string // the key or "[i]" that leads from parent to this frame
	object bool
	keys   map[string]bool
	index  int    // next element's index, in an array
	key    string // last key read, in an object
	expect bool   // in an object, the next token is a key
}

// Find returns the first key given twice in one object of data, at any depth, as
// a *DuplicateError; nil when every object's keys are distinct. Data that is not
// JSON is an error that is not a *DuplicateError: callers report it their own way.
func Find(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // numbers are skipped, never converted
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			if len(stack) != 0 {
				return io.ErrUnexpectedEOF
			}
			return nil
		}
		if err != nil {
			return err
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.expect {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				continue
			}
			key, ok := tok.(string)
			if !ok {
				return errors.New("jsonkeys: an object key is not a string")
			}
			if top.keys[key] {
				return &DuplicateError{Key: key, Path: top.path()}
			}
			top.keys[key] = true
			top.key, top.expect = key, false
			continue
		}
		if d, ok := tok.(json.Delim); ok && d == ']' {
			stack = stack[:len(stack)-1]
			continue
		}
		// tok starts a value: of the object's last key, of the array, or the top level.
		step := ""
		if top != nil {
			if top.object {
				step = top.key
				top.expect = true
			} else {
				step = "[" + strconv.Itoa(top.index) + "]"
				top.index++
			}
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{':
				stack = append(stack, &frame{parent: top, step: step, object: true, keys: map[string]bool{}, expect: true})
			case '[':
				stack = append(stack, &frame{parent: top, step: step})
			}
		}
	}
}

// path is where f is: "" for the top level, else such as "messages[2]" or
// "env.inner".
func (f *frame) path() string {
	var steps []string
	for ; f != nil && f.parent != nil; f = f.parent {
		steps = append(steps, f.step)
	}
	var b strings.Builder
	for i := len(steps) - 1; i >= 0; i-- {
		if b.Len() > 0 && !strings.HasPrefix(steps[i], "[") {
			b.WriteByte('.')
		}
		b.WriteString(steps[i])
	}
	return b.String()
}
