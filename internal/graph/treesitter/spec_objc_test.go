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
