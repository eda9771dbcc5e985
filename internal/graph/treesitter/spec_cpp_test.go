package treesitter

import "testing"

func TestCppSyntaxErrorKeepsWhatParsed(t *testing.T) {
	t.Parallel()
	expectPartial(t, "src/broken.cpp", "cpp", "class A {\n public:\n  int ok() { return 0; }\n  int broken() { return ; ) }\n};\nint after() { return 1; }\n", "4",
		"src/broken.cpp::A", "src/broken.cpp::A::ok", "src/broken.cpp::after")
}
