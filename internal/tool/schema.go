package tool

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// SchemaFor describes P as a JSON Schema object, the way the model sees a tool's
// parameters: `json` tags name the properties, a `jsonschema` tag is the description,
// fields without omitempty are required, and no other property is allowed. It follows
// github.com/google/jsonschema-go's For (a parity test holds it there) but writes JSON
// directly: the library's reflection and marshalling cost about 0.3 ms a tool at every
// start, most of building the tool set (docs/benchmarks/agent-overhead.md).
func SchemaFor[P any]() (json.RawMessage, error) {
	t := reflect.TypeFor[P]()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("parameters of type %s: want a struct", t)
	}
	var b strings.Builder
	if err := writeSchema(&b, t, map[reflect.Type]bool{}); err != nil {
		return nil, err
	}
	return json.RawMessage(b.String()), nil
}

func writeSchema(b *strings.Builder, t reflect.Type, seen map[reflect.Type]bool) error {
	nullable := false
	for t.Kind() == reflect.Pointer {
		t, nullable = t.Elem(), true
	}
	typ := func(name string) {
		if nullable {
			fmt.Fprintf(b, `"type":["null",%q]`, name)
		} else {
			fmt.Fprintf(b, `"type":%q`, name)
		}
	}
	if t.Kind() == reflect.Interface {
		b.WriteString("true") // any value
		return nil
	}
	b.WriteByte('{')
	defer b.WriteByte('}')
	switch t.Kind() {
	case reflect.String:
		typ("string")
	case reflect.Bool:
		typ("boolean")
	case reflect.Int, reflect.Int64:
		typ("integer")
	case reflect.Float32, reflect.Float64:
		typ("number")
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice {
			nullable = true // a nil slice encodes as null
		}
		typ("array")
		b.WriteString(`,"items":`)
		return writeSchema(b, t.Elem(), seen)
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return fmt.Errorf("map %s: keys must be strings", t)
		}
		typ("object")
		b.WriteString(`,"additionalProperties":`)
		return writeSchema(b, t.Elem(), seen)
	case reflect.Struct:
		if seen[t] {
			return fmt.Errorf("type %s refers to itself", t)
		}
		seen[t] = true
		defer delete(seen, t)
		typ("object")
		return writeProperties(b, t, seen)
	default:
		// Sized and unsigned integers would need bounds; tools use int.
		return fmt.Errorf("type %s is not supported in tool parameters (use string, bool, int, float64, slices, maps or structs)", t)
	}
	return nil
}

func writeProperties(b *strings.Builder, t reflect.Type, seen map[reflect.Type]bool) error {
	var required []string
	b.WriteString(`,"properties":{`)
	first := true
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		key, _ := json.Marshal(name)
		b.Write(key)
		b.WriteByte(':')
		var prop strings.Builder
		if err := writeSchema(&prop, f.Type, seen); err != nil {
			return fmt.Errorf("field %s: %w", f.Name, err)
		}
		s := prop.String()
		if desc := f.Tag.Get("jsonschema"); desc != "" {
			d, _ := json.Marshal(desc)
			s = `{"description":` + string(d) + "," + s[1:]
		}
		b.WriteString(s)
		if !strings.Contains(","+opts+",", ",omitempty,") && !strings.Contains(","+opts+",", ",omitzero,") {
			required = append(required, name)
		}
	}
	b.WriteByte('}')
	if len(required) > 0 {
		r, _ := json.Marshal(required)
		b.WriteString(`,"required":`)
		b.Write(r)
	}
	b.WriteString(`,"additionalProperties":false`)
	return nil
}
