package albert

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Report is what `albert-code quota` and /quota show for one provider.
type Report struct {
	Provider string       `json:"provider"`
	BaseURL  string       `json:"base_url"`
	Account  *Account     `json:"account,omitempty"`
	Routers  []RouterJSON `json:"routers,omitempty"`
	Models   []ModelQuota `json:"models"`
	// Errors say what could not be read (an endpoint down, no API key).
	Errors []string `json:"errors,omitempty"`
}

// Account is the key's owner.
type Account struct {
	ID    string `json:"id"`
	Name  string `json:"name,omitempty"`
	Email string `json:"email,omitempty"`
}

// RouterJSON is one router's limits; nil means unlimited.
type RouterJSON struct {
	Router int    `json:"router"`
	RPM    *int64 `json:"rpm"`
	RPD    *int64 `json:"rpd"`
	TPM    *int64 `json:"tpm"`
	TPD    *int64 `json:"tpd"`
}

// Routers groups /v1/me/info limits by router.
func Routers(limits []RouterLimit) []RouterJSON {
	var out []RouterJSON
	index := map[int]int{}
	for _, l := range limits {
		i, ok := index[l.Router]
		if !ok {
			i = len(out)
			index[l.Router] = i
			out = append(out, RouterJSON{Router: l.Router})
		}
		r := &out[i]
		switch l.Type {
		case "rpm":
			r.RPM = l.Value
		case "rpd":
			r.RPD = l.Value
		case "tpm":
			r.TPM = l.Value
		case "tpd":
			r.TPD = l.Value
		}
	}
	return out
}

// Warnings are the start-up lines for the models at 80 % or more, and the errors.
func (r Report) Warnings() []string {
	var out []string
	for _, m := range r.Models {
		if w := m.Warning(); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// WriteText prints the report as tables: usage per model, then the account's
// limits per router (Albert does not say which router serves which model).
func (r Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Provider %s (%s)\n", r.Provider, r.BaseURL)
	if a := r.Account; a != nil {
		fmt.Fprintf(&b, "Account  %s %s (id %s)\n", a.Name, a.Email, a.ID)
	}
	b.WriteString("\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "MODEL\tREQUESTS TODAY\tINPUT TOKENS TODAY\tSTATUS\tLIMITS FROM")
	for _, m := range r.Models {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", m.Model, counter(m.Requests, m.RPD), counter(m.InputTokens, m.TPD), m.Level, m.LimitSource)
	}
	_ = tw.Flush()
	if len(r.Routers) > 0 {
		b.WriteString("\nAccount limits per router (/v1/me/info; ∞ = unlimited)\n")
		tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "ROUTER\tRPM\tRPD\tTPM\tTPD")
		for _, rt := range r.Routers {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", rt.Router, limit(rt.RPM), limit(rt.RPD), limit(rt.TPM), limit(rt.TPD))
		}
		_ = tw.Flush()
	}
	for _, e := range r.Errors {
		fmt.Fprintf(&b, "\nnot available: %s\n", e)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func counter(used, lim int64) string {
	if lim <= 0 {
		return group(used) + " / ?"
	}
	return fmt.Sprintf("%s / %s (%.0f %%)", group(used), group(lim), 100*float64(used)/float64(lim))
}

func limit(v *int64) string {
	if v == nil {
		return "∞"
	}
	return group(*v)
}
