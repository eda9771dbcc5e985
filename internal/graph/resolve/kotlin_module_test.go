package resolve

import (
	"reflect"
	"testing"
)

// TestKotlinModule: a package is the folder that spells it, else the longest
// tail of it that names a folder (Kotlin drops the common root package), found
// with less certainty; the platform's packages are external.
func TestKotlinModule(t *testing.T) {
	t.Parallel()
	tr := NewTree([]File{
		{Path: "src/main/kotlin/com/acme/geo/Circle.kt", Language: "kotlin"},
		{Path: "src/main/java/com/acme/geo/Legacy.java", Language: "java"},
		{Path: "lib/src/util/Text.kt", Language: "kotlin"},
		{Path: "lib/src/kotlin/math/Fake.kt", Language: "kotlin"},
	})
	for _, c := range []struct {
		pkg  string
		want Module
	}{
		{"com.acme.geo", Module{Files: []string{"src/main/java/com/acme/geo/Legacy.java", "src/main/kotlin/com/acme/geo/Circle.kt"},
			Dir: "src/main/java/com/acme/geo"}},
		{"com.acme.util", Module{Files: []string{"lib/src/util/Text.kt"}, Dir: "lib/src/util", Alternatives: 1}},
		{"kotlin.math", Module{External: true}},
		{"org.other.lib", Module{External: true}},
	} {
		if got := kotlinModule(tr, "x.kt", c.pkg); !reflect.DeepEqual(got, c.want) {
			t.Errorf("kotlinModule(%s) = %+v, want %+v", c.pkg, got, c.want)
		}
	}
}
