package treesitter

import "testing"

func TestKotlinSyntaxErrorKeepsWhatParsed(t *testing.T) {
	t.Parallel()
	src := "class A {\n    fun ok() {}\n    fun broken() {\n        val x = = 3\n    }\n}\n\nfun after() {\n    ok()\n}\n"
	expectPartial(t, "e.kt", "kotlin", src, "4", "e.kt::A", "e.kt::A::ok", "e.kt::after")
}

// TestKotlinOneLineBodies: members may end on the line of their body's closing
// brace (the vendored scanner's patch); the grammar as published fails there.
func TestKotlinOneLineBodies(t *testing.T) {
	t.Parallel()
	expectFacts(t, "o.kt", "kotlin", "object Config { const val MAX = 3 }\ninterface Shape { fun area(): Double }\nclass Sq : Shape { override fun area() = side() * 2; fun side() = 1.0 }\n", []string{
		`edge calls o.kt::Sq::area -> o.kt::Sq::side 0.9 name @3`,
		`edge contains o.kt -> o.kt::Config 1 name @1`,
		`edge contains o.kt -> o.kt::Shape 1 name @2`,
		`edge contains o.kt -> o.kt::Sq 1 name @3`,
		`edge contains o.kt::Config -> o.kt::Config::MAX 1 name @1`,
		`edge contains o.kt::Shape -> o.kt::Shape::area 1 name @2`,
		`edge contains o.kt::Sq -> o.kt::Sq::area 1 name @3`,
		`edge contains o.kt::Sq -> o.kt::Sq::side 1 name @3`,
		`node class o.kt::Config 1:8-1 sig="object Config { const val MAX = 3 }" exported`,
		`node class o.kt::Sq 3:7-3 sig="class Sq : Shape { override fun area() = side() * 2; fun side() = 1.0 }" exported`,
		`node constant o.kt::Config::MAX 1:27-1 sig="const val MAX = 3" exported`,
		`node file o.kt 1:0-4`,
		`node interface o.kt::Shape 2:11-2 sig="interface Shape { fun area(): Double }" exported`,
		`node method o.kt::Shape::area 2:23-2 sig="fun area(): Double" exported`,
		`node method o.kt::Sq::area 3:33-3 sig="override fun area() = side() * 2" exported`,
		`node method o.kt::Sq::side 3:58-3 sig="fun side() = 1.0" exported`,
		`edge implements o.kt::Sq -> o.kt::Shape 0.9 name @3`,
	})
}

// TestKotlinTrailingLambdasAndAnnotations: `f(x) { … }` is one call of f, and
// the calls in the lambda are the enclosing function's; a signature starts
// after the annotations above it.
func TestKotlinTrailingLambdasAndAnnotations(t *testing.T) {
	t.Parallel()
	src := "@Suppress(\"unused\")\nclass A {\n    @JvmStatic\n    fun run() {\n        retry(3) { step() }\n        items.forEach { step() }\n    }\n\n    fun step() {}\n}\n"
	expectFacts(t, "a.kt", "kotlin", src, []string{
		`edge calls a.kt::A::run -> a.kt::A::step 0.9 name @5`,
		`edge calls a.kt::A::run -> a.kt::A::step 0.9 name @6`,
		`edge contains a.kt -> a.kt::A 1 name @2`,
		`edge contains a.kt::A -> a.kt::A::run 1 name @4`,
		`edge contains a.kt::A -> a.kt::A::step 1 name @9`,
		`node class a.kt::A 2:7-10 sig="class A" exported`,
		`node file a.kt 1:0-11`,
		`node method a.kt::A::run 4:9-7 sig="fun run()" exported`,
		`node method a.kt::A::step 9:9-9 sig="fun step() {}" exported`,
		`unresolved calls a.kt::A::run -> items.forEach @6:9`,
		`unresolved calls a.kt::A::run -> retry @5:9`,
	})
}
