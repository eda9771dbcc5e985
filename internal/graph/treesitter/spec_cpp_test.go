package treesitter

import "testing"

// TestCpp reads every kind of C++ definition. A method defined out of its class
// is the class's and replaces the declaration in it; a bare call in a class is
// `this->m()` first; `ns::f` and `A::f` resolve within the file.
func TestCpp(t *testing.T) {
	t.Parallel()
	expectFacts(t, "src/circle.cpp", "cpp", `#include "shape.hpp"
#include <vector>
using std::vector;
using namespace std;
namespace fs = std::filesystem;
using Str = std::string;

namespace geo {
namespace detail { int hidden(); }

/// A shape.
class Shape {
public:
    virtual double area() const = 0;
    static int count;
protected:
    int id_;
private:
    void secret();
};

// A circle.
template <typename T>
struct Circle : public Shape, private Base<T>, ns::Other {
    double area() const override { return helper() + this->helper(); }
    int helper() const;
    Circle(double r) : r_(r) {}
    ~Circle();
    T r_;
    enum class Kind { A, B };
};

/// Helps.
template <typename T>
int Circle<T>::helper() const {
    detail::hidden();
    auto p = std::make_unique<Circle<int>>(1.0);
    p->area();
    new Circle<T>(2.0);
    return Shape::count + geo::util(1) + make<int>() + secret();
}

int Shape::count = 0;

typedef Circle<int> IntCircle;
}

static void local() {}
namespace { int anon; }
int geo::util(int x) { return x; }
`, []string{
		`node file src/circle.cpp 1:0-51`,
		`node type_alias src/circle.cpp::Str 6:7-6 sig="using Str = std::string" exported`,
		`node namespace src/circle.cpp::geo 8:11-46 sig="namespace geo" exported`,
		`node function src/circle.cpp::geo::detail::hidden 9:24-9 sig="int hidden()" exported`,
		`node namespace src/circle.cpp::geo::detail 9:11-9 sig="namespace detail" exported`,
		`node class src/circle.cpp::geo::Shape 12:7-20 sig="class Shape" doc="A shape." exported`,
		`node method src/circle.cpp::geo::Shape::area 14:20-14 sig="virtual double area() const = 0" exported`,
		`node field src/circle.cpp::geo::Shape::count 15:16-15 sig="static int count" exported`,
		`node field src/circle.cpp::geo::Shape::id_ 17:9-17 sig="int id_" exported`,
		`node method src/circle.cpp::geo::Shape::secret 19:10-19 sig="void secret()"`,
		`node struct src/circle.cpp::geo::Circle 24:8-31 sig="struct Circle : public Shape, private Base<T>, ns::Other" doc="A circle." exported`,
		`node method src/circle.cpp::geo::Circle::area 25:12-25 sig="double area() const override" exported`,
		`node method src/circle.cpp::geo::Circle::Circle 27:5-27 sig="Circle(double r) : r_(r)" exported`,
		`node method src/circle.cpp::geo::Circle::~Circle 28:5-28 sig="~Circle()" exported`,
		`node field src/circle.cpp::geo::Circle::r_ 29:7-29 sig="T r_" exported`,
		`node enum src/circle.cpp::geo::Circle::Kind 30:16-30 sig="enum class Kind" exported`,
		`node variant src/circle.cpp::geo::Circle::Kind::A 30:23-30 sig="A" exported`,
		`node variant src/circle.cpp::geo::Circle::Kind::B 30:26-30 sig="B" exported`,
		`node method src/circle.cpp::geo::Circle::helper 35:16-41 sig="int Circle<T>::helper() const" doc="Helps." exported`,
		`node type_alias src/circle.cpp::geo::IntCircle 45:21-45 sig="typedef Circle<int> IntCircle" exported`,
		`node function src/circle.cpp::local 48:13-48 sig="static void local()"`,
		`node variable src/circle.cpp::anon 49:17-49 sig="int anon"`,
		`node function src/circle.cpp::geo::util 50:10-50 sig="int geo::util(int x)" exported`,
		`edge imports src/circle.cpp -> "shape.hpp" 0.5 import @1`,
		`edge imports src/circle.cpp -> <vector> 0.5 import @2`,
		`edge imports src/circle.cpp -> std::vector 0.5 import @3`,
		`edge imports src/circle.cpp -> std::* 0.5 import @4`,
		`edge imports src/circle.cpp -> std::filesystem as fs 0.5 import @5`,
		`edge contains src/circle.cpp -> src/circle.cpp::Str 1 name @6`,
		`edge contains src/circle.cpp -> src/circle.cpp::geo 1 name @8`,
		`edge contains src/circle.cpp::geo -> src/circle.cpp::geo::detail 1 name @9`,
		`edge contains src/circle.cpp::geo::detail -> src/circle.cpp::geo::detail::hidden 1 name @9`,
		`edge contains src/circle.cpp::geo -> src/circle.cpp::geo::Shape 1 name @12`,
		`edge contains src/circle.cpp::geo::Shape -> src/circle.cpp::geo::Shape::area 1 name @14`,
		`edge contains src/circle.cpp::geo::Shape -> src/circle.cpp::geo::Shape::count 1 name @15`,
		`edge contains src/circle.cpp::geo::Shape -> src/circle.cpp::geo::Shape::id_ 1 name @17`,
		`edge contains src/circle.cpp::geo::Shape -> src/circle.cpp::geo::Shape::secret 1 name @19`,
		`edge contains src/circle.cpp::geo -> src/circle.cpp::geo::Circle 1 name @24`,
		`edge contains src/circle.cpp::geo::Circle -> src/circle.cpp::geo::Circle::area 1 name @25`,
		`edge contains src/circle.cpp::geo::Circle -> src/circle.cpp::geo::Circle::Circle 1 name @27`,
		`edge contains src/circle.cpp::geo::Circle -> src/circle.cpp::geo::Circle::~Circle 1 name @28`,
		`edge contains src/circle.cpp::geo::Circle -> src/circle.cpp::geo::Circle::r_ 1 name @29`,
		`edge contains src/circle.cpp::geo::Circle -> src/circle.cpp::geo::Circle::Kind 1 name @30`,
		`edge contains src/circle.cpp::geo::Circle::Kind -> src/circle.cpp::geo::Circle::Kind::A 1 name @30`,
		`edge contains src/circle.cpp::geo::Circle::Kind -> src/circle.cpp::geo::Circle::Kind::B 1 name @30`,
		`edge contains src/circle.cpp::geo::Circle -> src/circle.cpp::geo::Circle::helper 1 name @35`,
		`edge contains src/circle.cpp::geo -> src/circle.cpp::geo::IntCircle 1 name @45`,
		`edge contains src/circle.cpp -> src/circle.cpp::local 1 name @48`,
		`edge contains src/circle.cpp -> src/circle.cpp::anon 1 name @49`,
		`edge contains src/circle.cpp::geo -> src/circle.cpp::geo::util 1 name @50`,
		`edge extends src/circle.cpp::geo::Circle -> src/circle.cpp::geo::Shape 0.9 name @24`,
		`edge calls src/circle.cpp::geo::Circle::area -> src/circle.cpp::geo::Circle::helper 0.9 name @25`,
		`edge calls src/circle.cpp::geo::Circle::area -> src/circle.cpp::geo::Circle::helper 0.9 name @25`,
		`edge calls src/circle.cpp::geo::Circle::helper -> src/circle.cpp::geo::detail::hidden 0.9 name @36`,
		`edge calls src/circle.cpp::geo::Circle::helper -> src/circle.cpp::geo::Circle 0.9 name @39`,
		`edge calls src/circle.cpp::geo::Circle::helper -> src/circle.cpp::geo::Shape::secret 0.9 name @40`,
		`edge calls src/circle.cpp::geo::Circle::helper -> src/circle.cpp::geo::util 0.9 name @40`,
		`unresolved extends src/circle.cpp::geo::Circle -> Base @24:39`,
		`unresolved extends src/circle.cpp::geo::Circle -> ns::Other @24:48`,
		`unresolved calls src/circle.cpp::geo::Circle::helper -> std::make_unique @37:14`,
		`unresolved calls src/circle.cpp::geo::Circle::helper -> p.area @38:5`,
		`unresolved calls src/circle.cpp::geo::Circle::helper -> make @40:42`,
	})
}

func TestCppSyntaxErrorKeepsWhatParsed(t *testing.T) {
	t.Parallel()
	expectPartial(t, "src/broken.cpp", "cpp", "class A {\n public:\n  int ok() { return 0; }\n  int broken() { return ; ) }\n};\nint after() { return 1; }\n", "4",
		"src/broken.cpp::A", "src/broken.cpp::A::ok", "src/broken.cpp::after")
}
