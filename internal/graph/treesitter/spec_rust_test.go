package treesitter

import "testing"

// TestRust reads every kind of Rust definition: an impl's items are its type's,
// wherever the impl is; `impl Trait for T` is an implements edge from T.
func TestRust(t *testing.T) {
	t.Parallel()
	expectFacts(t, "src/shapes.rs", "rust", `//! Shapes.
use std::collections::{HashMap, hash_map::Entry as E};
use crate::net::Client;
use super::*;
use self::inner::{self as inn};
extern crate serde as sd;

/// A shape.
/// Has an area.
pub trait Shape: Debug + fmt::Display {
    const SIDES: u32;
    type Out;
    fn area(&self) -> f64;
    fn name(&self) -> String { String::new() }
}

/// A circle.
#[derive(Debug)]
pub(crate) struct Circle<T> {
    pub r: f64,
    c: T,
}

struct Pair(i32, i32);

pub enum Kind {
    A,
    B(i32),
    C { x: i32 },
}

union U { a: u32 }

impl<T: Clone> Shape for Circle<T> {
    const SIDES: u32 = 0;
    type Out = T;
    fn area(&self) -> f64 {
        self.helper();
        Self::make();
        helper(1);
        std::mem::drop(Pair(1, 2));
        self.c.clone().len();
        Kind::B(3);
        let v = "1".parse::<i32>();
        m!();
        println!("{}", v);
        0.0
    }
}

impl Circle<i32> {
    /// Makes one.
    pub fn make() -> Self { Circle { r: 1.0, c: 0 } }
    fn helper(&self) {}
}

pub mod inner {
    pub fn f() { super::helper(2); }
}

pub type Alias = Circle<u8>;
pub const MAX: usize = 10;
static mut COUNT: i32 = 0;

// Not a doc: a blank line follows.

fn helper(x: i32) -> i32 { Circle::make(); inner::f(); x }

macro_rules! m { () => {} }
`, []string{
		`node file src/shapes.rs 1:0-70`,
		`node interface src/shapes.rs::Shape 10:11-15 sig="pub trait Shape: Debug + fmt::Display" doc="A shape.\nHas an area." exported`,
		`node constant src/shapes.rs::Shape::SIDES 11:11-11 sig="const SIDES: u32" exported`,
		`node type_alias src/shapes.rs::Shape::Out 12:10-12 sig="type Out" exported`,
		`node method src/shapes.rs::Shape::area 13:8-13 sig="fn area(&self) -> f64" exported`,
		`node method src/shapes.rs::Shape::name 14:8-14 sig="fn name(&self) -> String" exported`,
		`node struct src/shapes.rs::Circle 19:19-22 sig="pub(crate) struct Circle<T>" doc="A circle."`,
		`node field src/shapes.rs::Circle::r 20:9-20 sig="pub r: f64" exported`,
		`node field src/shapes.rs::Circle::c 21:5-21 sig="c: T"`,
		`node struct src/shapes.rs::Pair 24:8-24 sig="struct Pair"`,
		`node enum src/shapes.rs::Kind 26:10-30 sig="pub enum Kind" exported`,
		`node variant src/shapes.rs::Kind::A 27:5-27 sig="A" exported`,
		`node variant src/shapes.rs::Kind::B 28:5-28 sig="B(i32)" exported`,
		`node field src/shapes.rs::Kind::C::x 29:9-29 sig="x: i32" exported`,
		`node variant src/shapes.rs::Kind::C 29:5-29 sig="C { x: i32 }" exported`,
		`node field src/shapes.rs::U::a 32:11-32 sig="a: u32"`,
		`node struct src/shapes.rs::U 32:7-32 sig="union U"`,
		`node constant src/shapes.rs::Circle::SIDES 35:11-35 sig="const SIDES: u32 = 0" exported`,
		`node type_alias src/shapes.rs::Circle::Out 36:10-36 sig="type Out = T" exported`,
		`node method src/shapes.rs::Circle::area 37:8-48 sig="fn area(&self) -> f64" exported`,
		`node method src/shapes.rs::Circle::make 53:12-53 sig="pub fn make() -> Self" doc="Makes one." exported`,
		`node method src/shapes.rs::Circle::helper 54:8-54 sig="fn helper(&self)"`,
		`node namespace src/shapes.rs::inner 57:9-59 sig="pub mod inner" exported`,
		`node function src/shapes.rs::inner::f 58:12-58 sig="pub fn f()" exported`,
		`node type_alias src/shapes.rs::Alias 61:10-61 sig="pub type Alias = Circle<u8>" exported`,
		`node constant src/shapes.rs::MAX 62:11-62 sig="pub const MAX: usize = 10" exported`,
		`node variable src/shapes.rs::COUNT 63:12-63 sig="static mut COUNT: i32 = 0"`,
		`node function src/shapes.rs::helper 67:4-67 sig="fn helper(x: i32) -> i32"`,
		`node function src/shapes.rs::m 69:14-69 sig="macro_rules! m { () => {} }"`,
		`edge imports src/shapes.rs -> std::collections::HashMap 0.5 import @2`,
		`edge imports src/shapes.rs -> std::collections::hash_map::Entry as E 0.5 import @2`,
		`edge imports src/shapes.rs -> crate::net::Client 0.5 import @3`,
		`edge imports src/shapes.rs -> super::* 0.5 import @4`,
		`edge imports src/shapes.rs -> self::inner as inn 0.5 import @5`,
		`edge imports src/shapes.rs -> serde as sd 0.5 import @6`,
		`edge contains src/shapes.rs -> src/shapes.rs::Shape 1 name @10`,
		`edge contains src/shapes.rs::Shape -> src/shapes.rs::Shape::SIDES 1 name @11`,
		`edge contains src/shapes.rs::Shape -> src/shapes.rs::Shape::Out 1 name @12`,
		`edge contains src/shapes.rs::Shape -> src/shapes.rs::Shape::area 1 name @13`,
		`edge contains src/shapes.rs::Shape -> src/shapes.rs::Shape::name 1 name @14`,
		`edge contains src/shapes.rs -> src/shapes.rs::Circle 1 name @19`,
		`edge contains src/shapes.rs::Circle -> src/shapes.rs::Circle::r 1 name @20`,
		`edge contains src/shapes.rs::Circle -> src/shapes.rs::Circle::c 1 name @21`,
		`edge contains src/shapes.rs -> src/shapes.rs::Pair 1 name @24`,
		`edge contains src/shapes.rs -> src/shapes.rs::Kind 1 name @26`,
		`edge contains src/shapes.rs::Kind -> src/shapes.rs::Kind::A 1 name @27`,
		`edge contains src/shapes.rs::Kind -> src/shapes.rs::Kind::B 1 name @28`,
		`edge contains src/shapes.rs::Kind -> src/shapes.rs::Kind::C 1 name @29`,
		`edge contains src/shapes.rs::Kind::C -> src/shapes.rs::Kind::C::x 1 name @29`,
		`edge contains src/shapes.rs -> src/shapes.rs::U 1 name @32`,
		`edge contains src/shapes.rs::U -> src/shapes.rs::U::a 1 name @32`,
		`edge contains src/shapes.rs::Circle -> src/shapes.rs::Circle::SIDES 1 name @35`,
		`edge contains src/shapes.rs::Circle -> src/shapes.rs::Circle::Out 1 name @36`,
		`edge contains src/shapes.rs::Circle -> src/shapes.rs::Circle::area 1 name @37`,
		`edge contains src/shapes.rs::Circle -> src/shapes.rs::Circle::make 1 name @53`,
		`edge contains src/shapes.rs::Circle -> src/shapes.rs::Circle::helper 1 name @54`,
		`edge contains src/shapes.rs -> src/shapes.rs::inner 1 name @57`,
		`edge contains src/shapes.rs::inner -> src/shapes.rs::inner::f 1 name @58`,
		`edge contains src/shapes.rs -> src/shapes.rs::Alias 1 name @61`,
		`edge contains src/shapes.rs -> src/shapes.rs::MAX 1 name @62`,
		`edge contains src/shapes.rs -> src/shapes.rs::COUNT 1 name @63`,
		`edge contains src/shapes.rs -> src/shapes.rs::helper 1 name @67`,
		`edge contains src/shapes.rs -> src/shapes.rs::m 1 name @69`,
		`edge implements src/shapes.rs::Circle -> src/shapes.rs::Shape 0.9 name @34`,
		`edge calls src/shapes.rs::Circle::area -> src/shapes.rs::Circle::helper 0.9 name @38`,
		`edge calls src/shapes.rs::Circle::area -> src/shapes.rs::Circle::make 0.9 name @39`,
		`edge calls src/shapes.rs::Circle::area -> src/shapes.rs::helper 0.9 name @40`,
		`edge calls src/shapes.rs::Circle::area -> src/shapes.rs::Pair 0.9 name @41`,
		`edge calls src/shapes.rs::Circle::area -> src/shapes.rs::Kind::B 0.9 name @43`,
		`edge calls src/shapes.rs::Circle::area -> src/shapes.rs::m 0.9 name @45`,
		`edge calls src/shapes.rs::helper -> src/shapes.rs::Circle::make 0.9 name @67`,
		`edge calls src/shapes.rs::helper -> src/shapes.rs::inner::f 0.9 name @67`,
		`unresolved extends src/shapes.rs::Shape -> Debug @10:18`,
		`unresolved extends src/shapes.rs::Shape -> fmt::Display @10:26`,
		`unresolved calls src/shapes.rs::Shape::name -> String::new @14:32`,
		`unresolved calls src/shapes.rs::Circle::area -> std::mem::drop @41:9`,
		`unresolved calls src/shapes.rs::Circle::area -> <expr>.len @42:9`,
		`unresolved calls src/shapes.rs::Circle::area -> self.c.clone @42:9`,
		`unresolved calls src/shapes.rs::Circle::area -> <expr>.parse @44:17`,
		`unresolved calls src/shapes.rs::Circle::area -> println @46:9`,
		`unresolved calls src/shapes.rs::inner::f -> super::helper @58:18`,
	})
}

func TestRustSyntaxErrorKeepsWhatParsed(t *testing.T) {
	t.Parallel()
	expectPartial(t, "src/broken.rs", "rust", "fn ok() {}\n\nfn broken() { let x = ; }\n\nstruct After { x: i32 }\n", "3",
		"src/broken.rs::ok", "src/broken.rs::broken", "src/broken.rs::After", "src/broken.rs::After::x")
}
