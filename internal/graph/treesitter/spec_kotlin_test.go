package treesitter

import "testing"

// TestKotlin reads a class with a primary constructor, a companion object, an interface, an object
// delegating an interface, an enum, a type alias, a constant and top-level
// functions, with imports (aliased, wildcard), supertypes and calls bare, on
// this and on the class.
func TestKotlin(t *testing.T) {
	t.Parallel()
	expectFacts(t, "app/src/geo/Circle.kt", "kotlin", `package com.example.geo

import kotlin.math.PI
import com.example.shapes.Shape as S
import com.example.util.*

/** A circle. */
class Circle(val radius: Double, scale: Int) : Shape(), Comparable<Circle> {
    fun area(): Double {
        val s = scale(2.0)
        log("area")
        this.check()
        return PI * radius * radius + s.size
    }

    private fun scale(k: Double) = Circle(radius * k, 1)

    fun check() {}

    companion object {
        fun unit() = Circle(1.0, 1).also { it.check() }
    }
}

// Anything with an area.
interface Shape2 {
    fun area(): Double
}

object Registry : Listener by NoOp {
    internal val items = mutableListOf<Circle>()
}

enum class Color { RED, GREEN }

typealias Radius = Double

const val MAX = 3

fun log(msg: String) {
    println(msg)
}
`, []string{
		`edge calls app/src/geo/Circle.kt::Circle::area -> app/src/geo/Circle.kt::Circle::check 0.9 name @12`,
		`edge calls app/src/geo/Circle.kt::Circle::area -> app/src/geo/Circle.kt::Circle::scale 0.9 name @10`,
		`edge calls app/src/geo/Circle.kt::Circle::area -> app/src/geo/Circle.kt::log 0.9 name @11`,
		`edge calls app/src/geo/Circle.kt::Circle::scale -> app/src/geo/Circle.kt::Circle 0.9 name @16`,
		`edge calls app/src/geo/Circle.kt::Circle::unit -> app/src/geo/Circle.kt::Circle 0.9 name @21`,
		`edge contains app/src/geo/Circle.kt -> app/src/geo/Circle.kt::Circle 1 name @8`,
		`edge contains app/src/geo/Circle.kt -> app/src/geo/Circle.kt::Color 1 name @34`,
		`edge contains app/src/geo/Circle.kt -> app/src/geo/Circle.kt::MAX 1 name @38`,
		`edge contains app/src/geo/Circle.kt -> app/src/geo/Circle.kt::Radius 1 name @36`,
		`edge contains app/src/geo/Circle.kt -> app/src/geo/Circle.kt::Registry 1 name @30`,
		`edge contains app/src/geo/Circle.kt -> app/src/geo/Circle.kt::Shape2 1 name @26`,
		`edge contains app/src/geo/Circle.kt -> app/src/geo/Circle.kt::log 1 name @40`,
		`edge contains app/src/geo/Circle.kt::Circle -> app/src/geo/Circle.kt::Circle::area 1 name @9`,
		`edge contains app/src/geo/Circle.kt::Circle -> app/src/geo/Circle.kt::Circle::check 1 name @18`,
		`edge contains app/src/geo/Circle.kt::Circle -> app/src/geo/Circle.kt::Circle::radius 1 name @8`,
		`edge contains app/src/geo/Circle.kt::Circle -> app/src/geo/Circle.kt::Circle::scale 1 name @16`,
		`edge contains app/src/geo/Circle.kt::Circle -> app/src/geo/Circle.kt::Circle::unit 1 name @21`,
		`edge contains app/src/geo/Circle.kt::Color -> app/src/geo/Circle.kt::Color::GREEN 1 name @34`,
		`edge contains app/src/geo/Circle.kt::Color -> app/src/geo/Circle.kt::Color::RED 1 name @34`,
		`edge contains app/src/geo/Circle.kt::Registry -> app/src/geo/Circle.kt::Registry::items 1 name @31`,
		`edge contains app/src/geo/Circle.kt::Shape2 -> app/src/geo/Circle.kt::Shape2::area 1 name @27`,
		`edge imports app/src/geo/Circle.kt -> com.example.shapes::Shape as S 0.5 import @4`,
		`edge imports app/src/geo/Circle.kt -> com.example.util::* 0.5 import @5`,
		`edge imports app/src/geo/Circle.kt -> kotlin.math::PI 0.5 import @3`,
		`node class app/src/geo/Circle.kt::Circle 8:7-23 sig="class Circle(val radius: Double, scale: Int) : Shape(), Comparable<Circle>" doc="A circle." exported`,
		`node class app/src/geo/Circle.kt::Registry 30:8-32 sig="object Registry : Listener by NoOp" exported`,
		`node constant app/src/geo/Circle.kt::MAX 38:11-38 sig="const val MAX = 3" exported`,
		`node enum app/src/geo/Circle.kt::Color 34:12-34 sig="enum class Color { RED, GREEN }" exported`,
		`node field app/src/geo/Circle.kt::Circle::radius 8:18-8 sig="val radius: Double" exported`,
		`node field app/src/geo/Circle.kt::Registry::items 31:18-31 sig="internal val items = mutableListOf<Circle>()"`,
		`node file app/src/geo/Circle.kt 1:0-43`,
		`node function app/src/geo/Circle.kt::log 40:5-42 sig="fun log(msg: String)" exported`,
		`node interface app/src/geo/Circle.kt::Shape2 26:11-28 sig="interface Shape2" doc="Anything with an area." exported`,
		`node method app/src/geo/Circle.kt::Circle::area 9:9-14 sig="fun area(): Double" exported`,
		`node method app/src/geo/Circle.kt::Circle::check 18:9-18 sig="fun check() {}" exported`,
		`node method app/src/geo/Circle.kt::Circle::scale 16:17-16 sig="private fun scale(k: Double) = Circle(radius * k, 1)"`,
		`node method app/src/geo/Circle.kt::Circle::unit 21:13-21 sig="fun unit() = Circle(1.0, 1).also { it.check() }" exported`,
		`node method app/src/geo/Circle.kt::Shape2::area 27:9-27 sig="fun area(): Double" exported`,
		`node type_alias app/src/geo/Circle.kt::Radius 36:11-36 sig="typealias Radius = Double" exported`,
		`node variant app/src/geo/Circle.kt::Color::GREEN 34:25-34 sig="GREEN" exported`,
		`node variant app/src/geo/Circle.kt::Color::RED 34:20-34 sig="RED" exported`,
		`unresolved calls app/src/geo/Circle.kt::Circle::unit -> <expr>.also @21:22`,
		`unresolved calls app/src/geo/Circle.kt::Circle::unit -> it.check @21:44`,
		`unresolved calls app/src/geo/Circle.kt::Registry::items -> mutableListOf @31:26`,
		`unresolved calls app/src/geo/Circle.kt::log -> println @41:5`,
		`unresolved extends app/src/geo/Circle.kt::Circle -> Shape @8:48`,
		`unresolved implements app/src/geo/Circle.kt::Circle -> Comparable @8:57`,
		`unresolved implements app/src/geo/Circle.kt::Registry -> Listener @30:19`,
	})
}

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
