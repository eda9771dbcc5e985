package treesitter

import "testing"

// TestSwift reads a class, a protocol, a struct, an enum, an extension (read as its type
// reopened), a type alias, a constant and a function, with imports, bases
// (superclass first, then protocols) and calls bare, on self and of a type.
func TestSwift(t *testing.T) {
	t.Parallel()
	expectFacts(t, "Sources/Geo/Circle.swift", "swift", `import Foundation
import class UIKit.UIView

/// A circle.
class Circle: Shape, Equatable {
    let radius: Double
    init(radius: Double) {
        self.radius = radius
        validate()
    }
    func area() -> Double {
        let s = scale(2)
        log("area")
        self.check()
        return Double.pi * radius * radius + s.size
    }
    func scale(_ k: Double) -> Circle { return Circle(radius: radius * k) }
    func check() {}
    static func unit() -> Circle { Circle(radius: 1) }
}
protocol Shape {
    func area() -> Double
}
struct Point { var x: Int }
enum Color { case red, green }
extension Circle: CustomStringConvertible {
    var description: String { "circle" }
}
typealias Radius = Double
let maxCount = 3
func log(_ msg: String) { print(msg) }
`, []string{
		`edge calls Sources/Geo/Circle.swift::Circle::area -> Sources/Geo/Circle.swift::Circle::check 0.9 name @14`,
		`edge calls Sources/Geo/Circle.swift::Circle::area -> Sources/Geo/Circle.swift::Circle::scale 0.9 name @12`,
		`edge calls Sources/Geo/Circle.swift::Circle::area -> Sources/Geo/Circle.swift::log 0.9 name @13`,
		`edge calls Sources/Geo/Circle.swift::Circle::scale -> Sources/Geo/Circle.swift::Circle 0.9 name @17`,
		`edge calls Sources/Geo/Circle.swift::Circle::unit -> Sources/Geo/Circle.swift::Circle 0.9 name @19`,
		`edge contains Sources/Geo/Circle.swift -> Sources/Geo/Circle.swift::Circle 1 name @5`,
		`edge contains Sources/Geo/Circle.swift -> Sources/Geo/Circle.swift::Color 1 name @25`,
		`edge contains Sources/Geo/Circle.swift -> Sources/Geo/Circle.swift::Point 1 name @24`,
		`edge contains Sources/Geo/Circle.swift -> Sources/Geo/Circle.swift::Radius 1 name @29`,
		`edge contains Sources/Geo/Circle.swift -> Sources/Geo/Circle.swift::Shape 1 name @21`,
		`edge contains Sources/Geo/Circle.swift -> Sources/Geo/Circle.swift::log 1 name @31`,
		`edge contains Sources/Geo/Circle.swift -> Sources/Geo/Circle.swift::maxCount 1 name @30`,
		`edge contains Sources/Geo/Circle.swift::Circle -> Sources/Geo/Circle.swift::Circle::area 1 name @11`,
		`edge contains Sources/Geo/Circle.swift::Circle -> Sources/Geo/Circle.swift::Circle::check 1 name @18`,
		`edge contains Sources/Geo/Circle.swift::Circle -> Sources/Geo/Circle.swift::Circle::description 1 name @27`,
		`edge contains Sources/Geo/Circle.swift::Circle -> Sources/Geo/Circle.swift::Circle::radius 1 name @6`,
		`edge contains Sources/Geo/Circle.swift::Circle -> Sources/Geo/Circle.swift::Circle::scale 1 name @17`,
		`edge contains Sources/Geo/Circle.swift::Circle -> Sources/Geo/Circle.swift::Circle::unit 1 name @19`,
		`edge contains Sources/Geo/Circle.swift::Color -> Sources/Geo/Circle.swift::Color::green 1 name @25`,
		`edge contains Sources/Geo/Circle.swift::Color -> Sources/Geo/Circle.swift::Color::red 1 name @25`,
		`edge contains Sources/Geo/Circle.swift::Point -> Sources/Geo/Circle.swift::Point::x 1 name @24`,
		`edge contains Sources/Geo/Circle.swift::Shape -> Sources/Geo/Circle.swift::Shape::area 1 name @22`,
		`edge extends Sources/Geo/Circle.swift::Circle -> Sources/Geo/Circle.swift::Shape 0.9 name @5`,
		`edge imports Sources/Geo/Circle.swift -> Foundation 0.5 import @1`,
		`edge imports Sources/Geo/Circle.swift -> UIKit::UIView 0.5 import @2`,
		`node class Sources/Geo/Circle.swift::Circle 5:7-20 sig="class Circle: Shape, Equatable" doc="A circle." exported`,
		`node constant Sources/Geo/Circle.swift::maxCount 30:5-30 sig="let maxCount = 3" exported`,
		`node enum Sources/Geo/Circle.swift::Color 25:6-25 sig="enum Color" exported`,
		`node field Sources/Geo/Circle.swift::Circle::description 27:9-27 sig="var description: String { \"circle\" }" exported`,
		`node field Sources/Geo/Circle.swift::Circle::radius 6:9-6 sig="let radius: Double" exported`,
		`node field Sources/Geo/Circle.swift::Point::x 24:20-24 sig="var x: Int" exported`,
		`node file Sources/Geo/Circle.swift 1:0-32`,
		`node function Sources/Geo/Circle.swift::log 31:6-31 sig="func log(_ msg: String)" exported`,
		`node interface Sources/Geo/Circle.swift::Shape 21:10-23 sig="protocol Shape" exported`,
		`node method Sources/Geo/Circle.swift::Circle::area 11:10-16 sig="func area() -> Double" exported`,
		`node method Sources/Geo/Circle.swift::Circle::check 18:10-18 sig="func check()" exported`,
		`node method Sources/Geo/Circle.swift::Circle::scale 17:10-17 sig="func scale(_ k: Double) -> Circle" exported`,
		`node method Sources/Geo/Circle.swift::Circle::unit 19:17-19 sig="static func unit() -> Circle" exported`,
		`node method Sources/Geo/Circle.swift::Shape::area 22:10-22 sig="func area() -> Double" exported`,
		`node struct Sources/Geo/Circle.swift::Point 24:8-24 sig="struct Point" exported`,
		`node type_alias Sources/Geo/Circle.swift::Radius 29:11-29 sig="typealias Radius = Double" exported`,
		`node variant Sources/Geo/Circle.swift::Color::green 25:24-25 sig="case red, green" exported`,
		`node variant Sources/Geo/Circle.swift::Color::red 25:19-25 sig="case red, green" exported`,
		`unresolved calls Sources/Geo/Circle.swift::Circle -> validate @9:9`,
		`unresolved calls Sources/Geo/Circle.swift::log -> print @31:27`,
		`unresolved implements Sources/Geo/Circle.swift::Circle -> CustomStringConvertible @26:19`,
		`unresolved implements Sources/Geo/Circle.swift::Circle -> Equatable @5:22`,
	})
}

func TestSwiftSyntaxErrorKeepsWhatParsed(t *testing.T) {
	t.Parallel()
	src := "class A {\n    func ok() {}\n    func broken() {\n        let x = = 3\n    }\n}\n\nfunc after() {\n    ok()\n}\n"
	expectPartial(t, "e.swift", "swift", src, "4", "e.swift::A", "e.swift::A::ok", "e.swift::after")
}

// TestSwiftGenericInitialiser: `Box<Int>(value: 1)` is a call of Box.
func TestSwiftGenericInitialiser(t *testing.T) {
	t.Parallel()
	expectFacts(t, "b.swift", "swift", "struct Box<T> { let value: T }\nlet b = Box<Int>(value: 1)\n", []string{
		`edge calls b.swift::b -> b.swift::Box 0.9 name @2`,
		`edge contains b.swift -> b.swift::Box 1 name @1`,
		`edge contains b.swift -> b.swift::b 1 name @2`,
		`edge contains b.swift::Box -> b.swift::Box::value 1 name @1`,
		`node constant b.swift::b 2:5-2 sig="let b = Box<Int>(value: 1)" exported`,
		`node field b.swift::Box::value 1:21-1 sig="let value: T" exported`,
		`node file b.swift 1:0-3`,
		`node struct b.swift::Box 1:8-1 sig="struct Box<T>" exported`,
	})
}
