package resolve_test

import (
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// A package whose __init__.py imports its own submodules (`from . import sub`,
// `from .sub import helper`) lends them to every file that imports the package:
// `pkg.sub.f()`, `from pkg import sub; sub.f()`, and through a package nested in
// another, reach pkg/sub.py::f.
func TestPythonSubmodulesThroughInit(t *testing.T) {
	t.Parallel()
	st, _ := extracted(t, map[string]string{
		"pkg/__init__.py":       "from . import sub\nfrom . import inner\nfrom .sub import helper\n",
		"pkg/sub.py":            "def f():\n    return 1\n\n\ndef helper():\n    return 2\n",
		"pkg/inner/__init__.py": "from . import deep\n",
		"pkg/inner/deep.py":     "def g():\n    return 3\n",
		"app/__init__.py":       "",
		"app/dotted.py":         "import pkg\n\n\ndef run():\n    pkg.sub.f()\n    pkg.inner.deep.g()\n",
		"app/named.py":          "from pkg import sub, helper\n\n\ndef run():\n    sub.f()\n    helper()\n",
	})
	expect(t, "import pkg; pkg.sub.f(), pkg.inner.deep.g()",
		edgeEnds(t, st, "app/dotted.py::run", graph.EdgeCalls),
		"pkg/inner/deep.py::g [import]", "pkg/sub.py::f [import]")
	expect(t, "from pkg import sub, helper",
		edgeEnds(t, st, "app/named.py::run", graph.EdgeCalls),
		"pkg/sub.py::f [import]", "pkg/sub.py::helper [import]")
}
