package declarative

import (
	"strconv"
	"strings"
)

// jsonPath is a dotted path into a decoded JSON record: "item.text",
// "message.content.*.text" ("*" is every element of an array), "choices.0.delta".
type jsonPath []string

func parseJSONPath(s string) jsonPath { return strings.Split(s, ".") }

// lookup returns every value at p in v.
func (p jsonPath) lookup(v any) []any {
	cur := []any{v}
	for _, key := range p {
		var next []any
		for _, c := range cur {
			switch c := c.(type) {
			case map[string]any:
				if x, ok := c[key]; ok && x != nil {
					next = append(next, x)
				}
			case []any:
				if key == "*" {
					next = append(next, c...)
				} else if i, err := strconv.Atoi(key); err == nil && i >= 0 && i < len(c) {
					next = append(next, c[i])
				}
			}
		}
		if cur = next; len(cur) == 0 {
			return nil
		}
	}
	return cur
}
