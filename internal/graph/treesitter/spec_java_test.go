package treesitter

import "testing"

func TestJavaSyntaxErrorKeepsWhatParsed(t *testing.T) {
	t.Parallel()
	expectPartial(t, "src/Broken.java", "java", "class A {\n  void ok() {}\n  void broken() { int x = ; }\n  void after() { ok(); }\n}\n", "3",
		"src/Broken.java::A", "src/Broken.java::A::ok", "src/Broken.java::A::after")
}
