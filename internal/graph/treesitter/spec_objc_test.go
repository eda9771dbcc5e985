package treesitter

import "testing"

func TestObjCSyntaxErrorKeepsWhatParsed(t *testing.T) {
	t.Parallel()
	src := "@implementation A\n- (void)ok {}\n- (void)broken {\n    int x = = 3;\n}\n@end\n\nvoid after(void) {}\n"
	expectPartial(t, "e.m", "objc", src, "4", "e.m::A", "e.m::A::ok", "e.m::after")
}

// TestObjCEnumMacros: Foundation's NS_ENUM and NS_OPTIONS declare enums, read
// where the source has them; a file of them is no syntax error.
func TestObjCEnumMacros(t *testing.T) {
	t.Parallel()
	expectFacts(t, "m.h", "objc", "typedef NS_ENUM(NSInteger, Mode) {\n    ModeOff,\n    ModeOn,\n};\ntypedef NS_OPTIONS(NSUInteger, Flags) { FlagA = 1 << 0 };\ntypedef NS_ERROR_ENUM(MyDomain, MyError) { MyErrorBad = 1 };\n", []string{
		`edge contains m.h -> m.h::Flags 1 name @5`,
		`edge contains m.h -> m.h::Mode 1 name @1`,
		`edge contains m.h -> m.h::MyError 1 name @6`,
		`edge contains m.h::Flags -> m.h::Flags::FlagA 1 name @5`,
		`edge contains m.h::Mode -> m.h::Mode::ModeOff 1 name @2`,
		`edge contains m.h::Mode -> m.h::Mode::ModeOn 1 name @3`,
		`edge contains m.h::MyError -> m.h::MyError::MyErrorBad 1 name @6`,
		`node enum m.h::Flags 5:6-5 sig="enum Flags : NSUInteger" exported`,
		`node enum m.h::Mode 1:6-4 sig="enum Mode : NSInteger" exported`,
		`node enum m.h::MyError 6:6-6 sig="enum MyError" exported`,
		`node file m.h 1:0-7`,
		`node variant m.h::Flags::FlagA 5:41-5 sig="FlagA = 1 << 0" exported`,
		`node variant m.h::Mode::ModeOff 2:5-2 sig="ModeOff" exported`,
		`node variant m.h::Mode::ModeOn 3:5-3 sig="ModeOn" exported`,
		`node variant m.h::MyError::MyErrorBad 6:44-6 sig="MyErrorBad = 1" exported`,
	})
}
