package console

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"
)

// pages are the parsed templates: each page is the layout plus its own file.
type pages struct{ byName map[string]*template.Template }

var funcs = template.FuncMap{
	"since": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format("2006-01-02 15:04:05")
	},
	"pretty": func(raw json.RawMessage) string {
		var b bytes.Buffer
		if json.Indent(&b, raw, "", "  ") != nil {
			return string(raw)
		}
		return b.String()
	},
}

func loadPages() (*pages, error) {
	layout, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html")
	if err != nil {
		return nil, fmt.Errorf("console: parse the layout: %w", err)
	}
	files, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		return nil, err
	}
	p := &pages{byName: map[string]*template.Template{}}
	for _, f := range files {
		name := strings.TrimSuffix(path.Base(f), ".html")
		if name == "layout" {
			continue
		}
		t, err := template.Must(layout.Clone()).ParseFS(templateFS, f)
		if err != nil {
			return nil, fmt.Errorf("console: parse %s: %w", f, err)
		}
		p.byName[name] = t
	}
	return p, nil
}

// render writes the page name with data; the layout reads .Page, .CSRF and the
// page's own fields from data.
func (c *Console) render(w http.ResponseWriter, r *http.Request, status int, name string, data map[string]any) {
	t, ok := c.pages.byName[name]
	if !ok {
		http.Error(w, "console: no page "+name, http.StatusInternalServerError)
		return
	}
	if data == nil {
		data = map[string]any{}
	}
	data["Page"] = name
	data["CSRF"] = sessionOf(r).csrf
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout.html", data); err != nil {
		c.opts.Logger.Error("console: render a page", "page", name, "err", err)
		http.Error(w, "console: the page "+name+" could not be drawn: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// fragment writes one named template of page name alone, for a script that
// refreshes part of a page.
func (c *Console) fragment(w http.ResponseWriter, r *http.Request, name, block string, data map[string]any) {
	var buf bytes.Buffer
	data["CSRF"] = sessionOf(r).csrf
	if err := c.pages.byName[name].ExecuteTemplate(&buf, block, data); err != nil {
		http.Error(w, "console: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(buf.Bytes())
}

// errorPage is every refusal and failure: a page that says what happened and
// what to do, never a blank one.
func (c *Console) errorPage(w http.ResponseWriter, r *http.Request, status int, title, detail string) {
	c.render(w, r, status, "error", map[string]any{"Status": status, "Title": title, "Detail": detail})
}

func (c *Console) notFound(w http.ResponseWriter, r *http.Request) {
	c.errorPage(w, r, http.StatusNotFound, "Page not found", "There is no console page at "+r.URL.Path+". The console's pages are Runs, Cron, Quota and Files, in the menu above.")
}

// asset serves the embedded CSS, JavaScript and icon.
func (c *Console) asset(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	data, err := assetFS.ReadFile("assets/" + name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", mime.TypeByExtension(path.Ext(name)))
	w.Header().Set("Cache-Control", "max-age=3600")
	_, _ = w.Write(data)
}
