package treesitter

import "testing"

// TestJava reads every kind of Java definition. A bare call in a class is
// `this.m()` first, then the file's one method of that name.
func TestJava(t *testing.T) {
	t.Parallel()
	expectFacts(t, "src/com/acme/Circle.java", "java", `package com.acme.shapes;

import java.util.List;
import java.util.*;
import static java.lang.Math.max;
import static org.junit.Assert.*;

/** A shape. */
public interface Shape extends Comparable<Shape>, java.io.Serializable {
    int SIDES = 0;
    double area();
    private void hidden() {}
}

/**
 * A circle.
 */
@Deprecated
public abstract class Circle extends Base<String> implements Shape, Other {
    private final double r;
    protected static int count = 0, total;

    /** Makes one. */
    public Circle(double r) { super(r); this.r = r; }

    @Override
    public double area() {
        helper();
        this.helper();
        Circle.make();
        this.client.send(1);
        list.get(0).toString();
        return max(r, new Circle(1).r);
    }

    private void helper() {}
    static Circle make() { return new java.util.ArrayList<String>(); }

    class Inner extends Circle {
        void f() { helper(); run(); }
        void run() {}
    }

    enum Color implements Shape { RED, GREEN(2) { void x() {} }; Color(int v) {} }

    record Point(int x, int y) implements Other { Point { } }

    @interface Ann { String value() default ""; }
}
`, []string{
		`node file src/com/acme/Circle.java 1:0-50`,
		`node interface src/com/acme/Circle.java::Shape 9:18-13 sig="public interface Shape extends Comparable<Shape>, java.io.Serializable" doc="A shape." exported`,
		`node constant src/com/acme/Circle.java::Shape::SIDES 10:9-10 sig="int SIDES = 0" exported`,
		`node method src/com/acme/Circle.java::Shape::area 11:12-11 sig="double area()" exported`,
		`node method src/com/acme/Circle.java::Shape::hidden 12:18-12 sig="private void hidden()"`,
		`node class src/com/acme/Circle.java::Circle 19:23-49 sig="@Deprecated public abstract class Circle extends Base<String> implements Shape, Other" doc="A circle." exported`,
		`node field src/com/acme/Circle.java::Circle::r 20:26-20 sig="private final double r"`,
		`node field src/com/acme/Circle.java::Circle::count 21:26-21 sig="protected static int count = 0, total" exported`,
		`node field src/com/acme/Circle.java::Circle::total 21:37-21 sig="protected static int count = 0, total" exported`,
		`node method src/com/acme/Circle.java::Circle::Circle 24:12-24 sig="public Circle(double r)" doc="Makes one." exported`,
		`node method src/com/acme/Circle.java::Circle::area 27:19-34 sig="@Override public double area()" exported`,
		`node method src/com/acme/Circle.java::Circle::helper 36:18-36 sig="private void helper()"`,
		`node method src/com/acme/Circle.java::Circle::make 37:19-37 sig="static Circle make()"`,
		`node class src/com/acme/Circle.java::Circle::Inner 39:11-42 sig="class Inner extends Circle"`,
		`node method src/com/acme/Circle.java::Circle::Inner::f 40:14-40 sig="void f()"`,
		`node method src/com/acme/Circle.java::Circle::Inner::run 41:14-41 sig="void run()"`,
		`node enum src/com/acme/Circle.java::Circle::Color 44:10-44 sig="enum Color implements Shape"`,
		`node method src/com/acme/Circle.java::Circle::Color::Color 44:66-44 sig="Color(int v)"`,
		`node method src/com/acme/Circle.java::Circle::Color::GREEN::x 44:56-44 sig="void x()"`,
		`node variant src/com/acme/Circle.java::Circle::Color::GREEN 44:40-44 sig="GREEN(2)" exported`,
		`node variant src/com/acme/Circle.java::Circle::Color::RED 44:35-44 sig="RED" exported`,
		`node class src/com/acme/Circle.java::Circle::Point 46:12-46 sig="record Point(int x, int y) implements Other"`,
		`node field src/com/acme/Circle.java::Circle::Point::x 46:22-46 sig="int x"`,
		`node field src/com/acme/Circle.java::Circle::Point::y 46:29-46 sig="int y"`,
		`node method src/com/acme/Circle.java::Circle::Point::Point 46:51-46 sig="Point"`,
		`node interface src/com/acme/Circle.java::Circle::Ann 48:16-48 sig="@interface Ann"`,
		`node method src/com/acme/Circle.java::Circle::Ann::value 48:29-48 sig="String value() default \"\"" exported`,
		`edge imports src/com/acme/Circle.java -> java.util::List 0.5 import @3`,
		`edge imports src/com/acme/Circle.java -> java.util::* 0.5 import @4`,
		`edge imports src/com/acme/Circle.java -> java.lang.Math::max 0.5 import @5`,
		`edge imports src/com/acme/Circle.java -> org.junit.Assert::* 0.5 import @6`,
		`edge contains src/com/acme/Circle.java -> src/com/acme/Circle.java::Shape 1 name @9`,
		`edge contains src/com/acme/Circle.java::Shape -> src/com/acme/Circle.java::Shape::SIDES 1 name @10`,
		`edge contains src/com/acme/Circle.java::Shape -> src/com/acme/Circle.java::Shape::area 1 name @11`,
		`edge contains src/com/acme/Circle.java::Shape -> src/com/acme/Circle.java::Shape::hidden 1 name @12`,
		`edge contains src/com/acme/Circle.java -> src/com/acme/Circle.java::Circle 1 name @19`,
		`edge contains src/com/acme/Circle.java::Circle -> src/com/acme/Circle.java::Circle::r 1 name @20`,
		`edge contains src/com/acme/Circle.java::Circle -> src/com/acme/Circle.java::Circle::count 1 name @21`,
		`edge contains src/com/acme/Circle.java::Circle -> src/com/acme/Circle.java::Circle::total 1 name @21`,
		`edge contains src/com/acme/Circle.java::Circle -> src/com/acme/Circle.java::Circle::Circle 1 name @24`,
		`edge contains src/com/acme/Circle.java::Circle -> src/com/acme/Circle.java::Circle::area 1 name @27`,
		`edge contains src/com/acme/Circle.java::Circle -> src/com/acme/Circle.java::Circle::helper 1 name @36`,
		`edge contains src/com/acme/Circle.java::Circle -> src/com/acme/Circle.java::Circle::make 1 name @37`,
		`edge contains src/com/acme/Circle.java::Circle -> src/com/acme/Circle.java::Circle::Inner 1 name @39`,
		`edge contains src/com/acme/Circle.java::Circle::Inner -> src/com/acme/Circle.java::Circle::Inner::f 1 name @40`,
		`edge contains src/com/acme/Circle.java::Circle::Inner -> src/com/acme/Circle.java::Circle::Inner::run 1 name @41`,
		`edge contains src/com/acme/Circle.java::Circle -> src/com/acme/Circle.java::Circle::Color 1 name @44`,
		`edge contains src/com/acme/Circle.java::Circle::Color -> src/com/acme/Circle.java::Circle::Color::Color 1 name @44`,
		`edge contains src/com/acme/Circle.java::Circle::Color -> src/com/acme/Circle.java::Circle::Color::GREEN 1 name @44`,
		`edge contains src/com/acme/Circle.java::Circle::Color -> src/com/acme/Circle.java::Circle::Color::RED 1 name @44`,
		`edge contains src/com/acme/Circle.java::Circle::Color::GREEN -> src/com/acme/Circle.java::Circle::Color::GREEN::x 1 name @44`,
		`edge contains src/com/acme/Circle.java::Circle -> src/com/acme/Circle.java::Circle::Point 1 name @46`,
		`edge contains src/com/acme/Circle.java::Circle::Point -> src/com/acme/Circle.java::Circle::Point::Point 1 name @46`,
		`edge contains src/com/acme/Circle.java::Circle::Point -> src/com/acme/Circle.java::Circle::Point::x 1 name @46`,
		`edge contains src/com/acme/Circle.java::Circle::Point -> src/com/acme/Circle.java::Circle::Point::y 1 name @46`,
		`edge contains src/com/acme/Circle.java::Circle -> src/com/acme/Circle.java::Circle::Ann 1 name @48`,
		`edge contains src/com/acme/Circle.java::Circle::Ann -> src/com/acme/Circle.java::Circle::Ann::value 1 name @48`,
		`edge implements src/com/acme/Circle.java::Circle -> src/com/acme/Circle.java::Shape 0.9 name @19`,
		`edge calls src/com/acme/Circle.java::Circle::area -> src/com/acme/Circle.java::Circle::helper 0.9 name @28`,
		`edge calls src/com/acme/Circle.java::Circle::area -> src/com/acme/Circle.java::Circle::helper 0.9 name @29`,
		`edge calls src/com/acme/Circle.java::Circle::area -> src/com/acme/Circle.java::Circle 0.9 name @33`,
		`edge extends src/com/acme/Circle.java::Circle::Inner -> src/com/acme/Circle.java::Circle 0.9 name @39`,
		`edge calls src/com/acme/Circle.java::Circle::Inner::f -> src/com/acme/Circle.java::Circle::Inner::run 0.9 name @40`,
		`edge calls src/com/acme/Circle.java::Circle::Inner::f -> src/com/acme/Circle.java::Circle::helper 0.9 name @40`,
		`edge implements src/com/acme/Circle.java::Circle::Color -> src/com/acme/Circle.java::Shape 0.9 name @44`,
		`unresolved extends src/com/acme/Circle.java::Shape -> Comparable @9:32`,
		`unresolved extends src/com/acme/Circle.java::Shape -> java.io.Serializable @9:51`,
		`unresolved extends src/com/acme/Circle.java::Circle -> Base @19:38`,
		`unresolved implements src/com/acme/Circle.java::Circle -> Other @19:69`,
		`unresolved calls src/com/acme/Circle.java::Circle::area -> Circle.make @30:9`,
		`unresolved calls src/com/acme/Circle.java::Circle::area -> this.client.send @31:9`,
		`unresolved calls src/com/acme/Circle.java::Circle::area -> <expr>.toString @32:9`,
		`unresolved calls src/com/acme/Circle.java::Circle::area -> list.get @32:9`,
		`unresolved calls src/com/acme/Circle.java::Circle::area -> max @33:16`,
		`unresolved calls src/com/acme/Circle.java::Circle::make -> java.util.ArrayList @37:39`,
		`unresolved implements src/com/acme/Circle.java::Circle::Point -> Other @46:43`,
	})
}

func TestJavaSyntaxErrorKeepsWhatParsed(t *testing.T) {
	t.Parallel()
	expectPartial(t, "src/Broken.java", "java", "class A {\n  void ok() {}\n  void broken() { int x = ; }\n  void after() { ok(); }\n}\n", "3",
		"src/Broken.java::A", "src/Broken.java::A::ok", "src/Broken.java::A::after")
}
