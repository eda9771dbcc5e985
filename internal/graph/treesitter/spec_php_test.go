package treesitter

import (
	"context"
	"slices"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

func TestPHPImports(t *testing.T) {
	t.Parallel()
	cases := []struct {
		src  string
		want []string
	}{
		{`use App\Models\User;`, []string{`App\Models::User`}},
		{`use \App\Models\User as U;`, []string{`App\Models::User as U`}},
		{`use DateTime, Foo\Bar;`, []string{`::DateTime`, `Foo::Bar`}},
		{`use function App\Support\clamp;`, []string{`App\Support::clamp`}},
		{`use const App\LIMIT;`, []string{`App::LIMIT`}},
		{`use App\{Models\User, Http\Request as Req};`, []string{`App\Models::User`, `App\Http::Request as Req`}},
		{`require 'vendor/autoload.php';`, []string{`vendor/autoload.php`}},
		{`require_once __DIR__ . '/../lib/x.php';`, []string{`./../lib/x.php`}},
		{`include_once dirname(__FILE__) . '/x.php';`, []string{`./x.php`}},
		{`include "tpl.php";`, []string{`tpl.php`}},
		{`require $base . '/x.php';`, nil}, // computed: no target
	}
	for _, c := range cases {
		ff, err := Extract(context.Background(), "i.php", "php", []byte("<?php\n"+c.src+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range ff.Edges {
			if e.Kind == graph.EdgeImports {
				got = append(got, e.To)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: imports %q, want %q", c.src, got, c.want)
		}
	}
}

func TestPHPSyntaxErrorKeepsWhatParsed(t *testing.T) {
	t.Parallel()
	src := `<?php
class A {
    public function ok() {}
    public function broken( {}
    public function after() { $this->ok(); }
}
`
	expectPartial(t, "e.php", "php", src, "4", "e.php::A", "e.php::A::ok", "e.php::A::after")
}

func TestPHPConstructsAreNotCalls(t *testing.T) {
	t.Parallel()
	src := "<?php\nif (isset($a) && !EMPTY($b)) { eval('1;'); strlen($a); }\n"
	ff, err := Extract(context.Background(), "c.php", "php", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	for _, u := range ff.Unresolved {
		calls = append(calls, u.Name)
	}
	if want := []string{"strlen"}; !slices.Equal(calls, want) {
		t.Errorf("calls = %q, want %q", calls, want)
	}
}
