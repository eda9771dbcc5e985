package treesitter

import "testing"

// TestObjC reads an @interface and its @implementation as one class (the defined
// methods replace the declared ones), a @property, a @protocol, C functions and
// typedefs, #import and @import, and messages to self and to a class.
func TestObjC(t *testing.T) {
	t.Parallel()
	expectFacts(t, "Geo/Circle.m", "objc", `#import <Foundation/Foundation.h>
#import "Shape.h"
@import UIKit;

/// A circle.
@interface Circle : Shape <NSCopying>
@property (nonatomic) double radius;
- (double)area;
+ (instancetype)unit;
@end

@implementation Circle
- (double)area {
    double s = [self scale:2.0];
    logit("area");
    [self check];
    return M_PI * self.radius * self.radius + s;
}
- (double)scale:(double)k with:(int)j { return k; }
- (void)check {}
+ (instancetype)unit { return [[Circle alloc] init]; }
@end

@protocol Drawable <NSObject>
- (void)draw;
@end

static void logit(const char *msg) { printf("%s", msg); }
typedef struct { int x; } Point;
`, []string{
		`edge calls Geo/Circle.m::Circle::area -> Geo/Circle.m::Circle::check 0.9 name @16`,
		`edge calls Geo/Circle.m::Circle::area -> Geo/Circle.m::Circle::scale 0.9 name @14`,
		`edge calls Geo/Circle.m::Circle::area -> Geo/Circle.m::logit 0.9 name @15`,
		`edge contains Geo/Circle.m -> Geo/Circle.m::Circle 1 name @6`,
		`edge contains Geo/Circle.m -> Geo/Circle.m::Drawable 1 name @24`,
		`edge contains Geo/Circle.m -> Geo/Circle.m::Point 1 name @29`,
		`edge contains Geo/Circle.m -> Geo/Circle.m::logit 1 name @28`,
		`edge contains Geo/Circle.m::Circle -> Geo/Circle.m::Circle::area 1 name @13`,
		`edge contains Geo/Circle.m::Circle -> Geo/Circle.m::Circle::check 1 name @20`,
		`edge contains Geo/Circle.m::Circle -> Geo/Circle.m::Circle::radius 1 name @7`,
		`edge contains Geo/Circle.m::Circle -> Geo/Circle.m::Circle::scale 1 name @19`,
		`edge contains Geo/Circle.m::Circle -> Geo/Circle.m::Circle::unit 1 name @21`,
		`edge contains Geo/Circle.m::Drawable -> Geo/Circle.m::Drawable::draw 1 name @25`,
		`edge contains Geo/Circle.m::Point -> Geo/Circle.m::Point::x 1 name @29`,
		`edge imports Geo/Circle.m -> "Shape.h" 0.5 import @2`,
		`edge imports Geo/Circle.m -> <Foundation/Foundation.h> 0.5 import @1`,
		`edge imports Geo/Circle.m -> UIKit 0.5 import @3`,
		`node class Geo/Circle.m::Circle 6:12-10 sig="@interface Circle : Shape <NSCopying>" doc="A circle." exported`,
		`node field Geo/Circle.m::Circle::radius 7:30-7 sig="@property (nonatomic) double radius" exported`,
		`node field Geo/Circle.m::Point::x 29:22-29 sig="int x" exported`,
		`node file Geo/Circle.m 1:0-30`,
		`node function Geo/Circle.m::logit 28:13-28 sig="static void logit(const char *msg)"`,
		`node interface Geo/Circle.m::Drawable 24:11-26 sig="@protocol Drawable <NSObject>" exported`,
		`node method Geo/Circle.m::Circle::area 13:11-18 sig="- (double)area" exported`,
		`node method Geo/Circle.m::Circle::check 20:9-20 sig="- (void)check {}" exported`,
		`node method Geo/Circle.m::Circle::scale 19:11-19 sig="- (double)scale:(double)k with:(int)j { return k; }" exported`,
		`node method Geo/Circle.m::Circle::unit 21:17-21 sig="+ (instancetype)unit { return [[Circle alloc] init]; }" exported`,
		`node method Geo/Circle.m::Drawable::draw 25:9-25 sig="- (void)draw" exported`,
		`node struct Geo/Circle.m::Point 29:27-29 sig="struct" exported`,
		`unresolved calls Geo/Circle.m::Circle::unit -> <expr>.init @21:32`,
		`unresolved calls Geo/Circle.m::Circle::unit -> Circle.alloc @21:33`,
		`unresolved calls Geo/Circle.m::logit -> printf @28:38`,
		`unresolved extends Geo/Circle.m::Circle -> Shape @6:21`,
		`unresolved extends Geo/Circle.m::Drawable -> NSObject @24:21`,
		`unresolved implements Geo/Circle.m::Circle -> NSCopying @6:28`,
	})
}

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
