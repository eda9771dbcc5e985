package treesitter

import (
	"context"
	"slices"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// TestPHP reads a namespace declared as a statement, with a class, an interface,
// a trait and an enum; and braced namespaces, the global one included.
func TestPHP(t *testing.T) {
	t.Parallel()
	t.Run("namespace statement", func(t *testing.T) {
		t.Parallel()
		expectFacts(t, "src/Geometry/Circle.php", "php", `<?php
declare(strict_types=1);

namespace App\Geometry;

use App\Contracts\Shape as ShapeContract;
use Psr\Log\{LoggerInterface, NullLogger as Quiet};
use function App\Support\clamp;

require_once __DIR__ . '/helpers.php';

const VERSION = '1.0';

/**
 * A circle.
 */
final class Circle extends Shape implements ShapeContract, \JsonSerializable
{
    use Comparable;

    public const UNIT = 1;
    private float $radius;
    protected static ?Circle $cache = null;
    public $name = 'circle', $tags = [];

    public function __construct(float $radius, private LoggerInterface $log = new Quiet())
    {
        $this->radius = clamp($radius);
        $this->log->info('made');
    }

    /** The area. */
    public function area(): float
    {
        $s = $this->scale(2);
        return M_PI * self::square($this->radius) + static::UNIT + area_of($s);
    }

    private function scale(float $k): self
    {
        return new Circle($this->radius * $k);
    }

    protected static function square(float $x): float { return $x ** 2; }

    public function jsonSerialize(): mixed { return parent::jsonSerialize() + ['r' => $this->radius]; }
}

interface Measurable extends \Countable, Sized
{
    public function measure(): float;
}

trait Comparable
{
    abstract public function area(): float;
    public function compare(Measurable $o): int { return $this->area() <=> $o->measure(); }
}

enum Unit: string implements \JsonSerializable
{
    case Metre = 'm';
    case Foot = 'ft';

    public function jsonSerialize(): mixed { return $this->value; }
}

function area_of(Circle $c): float
{
    return $c?->area() ?? 0.0;
}
`, []string{
			`edge calls src/Geometry/Circle.php::App\Geometry::Circle::area -> src/Geometry/Circle.php::App\Geometry::Circle::scale 0.9 name @35`,
			`edge calls src/Geometry/Circle.php::App\Geometry::Circle::area -> src/Geometry/Circle.php::App\Geometry::Circle::square 0.9 name @36`,
			`edge calls src/Geometry/Circle.php::App\Geometry::Circle::area -> src/Geometry/Circle.php::App\Geometry::area_of 0.9 name @36`,
			`edge calls src/Geometry/Circle.php::App\Geometry::Circle::scale -> src/Geometry/Circle.php::App\Geometry::Circle 0.9 name @41`,
			`edge calls src/Geometry/Circle.php::App\Geometry::Comparable::compare -> src/Geometry/Circle.php::App\Geometry::Comparable::area 0.9 name @57`,
			`edge contains src/Geometry/Circle.php -> src/Geometry/Circle.php::App\Geometry 1 name @4`,
			`edge contains src/Geometry/Circle.php::App\Geometry -> src/Geometry/Circle.php::App\Geometry::Circle 1 name @17`,
			`edge contains src/Geometry/Circle.php::App\Geometry -> src/Geometry/Circle.php::App\Geometry::Comparable 1 name @54`,
			`edge contains src/Geometry/Circle.php::App\Geometry -> src/Geometry/Circle.php::App\Geometry::Measurable 1 name @49`,
			`edge contains src/Geometry/Circle.php::App\Geometry -> src/Geometry/Circle.php::App\Geometry::Unit 1 name @60`,
			`edge contains src/Geometry/Circle.php::App\Geometry -> src/Geometry/Circle.php::App\Geometry::VERSION 1 name @12`,
			`edge contains src/Geometry/Circle.php::App\Geometry -> src/Geometry/Circle.php::App\Geometry::area_of 1 name @68`,
			`edge contains src/Geometry/Circle.php::App\Geometry::Circle -> src/Geometry/Circle.php::App\Geometry::Circle::UNIT 1 name @21`,
			`edge contains src/Geometry/Circle.php::App\Geometry::Circle -> src/Geometry/Circle.php::App\Geometry::Circle::__construct 1 name @26`,
			`edge contains src/Geometry/Circle.php::App\Geometry::Circle -> src/Geometry/Circle.php::App\Geometry::Circle::area 1 name @33`,
			`edge contains src/Geometry/Circle.php::App\Geometry::Circle -> src/Geometry/Circle.php::App\Geometry::Circle::cache 1 name @23`,
			`edge contains src/Geometry/Circle.php::App\Geometry::Circle -> src/Geometry/Circle.php::App\Geometry::Circle::jsonSerialize 1 name @46`,
			`edge contains src/Geometry/Circle.php::App\Geometry::Circle -> src/Geometry/Circle.php::App\Geometry::Circle::name 1 name @24`,
			`edge contains src/Geometry/Circle.php::App\Geometry::Circle -> src/Geometry/Circle.php::App\Geometry::Circle::radius 1 name @22`,
			`edge contains src/Geometry/Circle.php::App\Geometry::Circle -> src/Geometry/Circle.php::App\Geometry::Circle::scale 1 name @39`,
			`edge contains src/Geometry/Circle.php::App\Geometry::Circle -> src/Geometry/Circle.php::App\Geometry::Circle::square 1 name @44`,
			`edge contains src/Geometry/Circle.php::App\Geometry::Circle -> src/Geometry/Circle.php::App\Geometry::Circle::tags 1 name @24`,
			`edge contains src/Geometry/Circle.php::App\Geometry::Comparable -> src/Geometry/Circle.php::App\Geometry::Comparable::area 1 name @56`,
			`edge contains src/Geometry/Circle.php::App\Geometry::Comparable -> src/Geometry/Circle.php::App\Geometry::Comparable::compare 1 name @57`,
			`edge contains src/Geometry/Circle.php::App\Geometry::Measurable -> src/Geometry/Circle.php::App\Geometry::Measurable::measure 1 name @51`,
			`edge contains src/Geometry/Circle.php::App\Geometry::Unit -> src/Geometry/Circle.php::App\Geometry::Unit::Foot 1 name @63`,
			`edge contains src/Geometry/Circle.php::App\Geometry::Unit -> src/Geometry/Circle.php::App\Geometry::Unit::Metre 1 name @62`,
			`edge contains src/Geometry/Circle.php::App\Geometry::Unit -> src/Geometry/Circle.php::App\Geometry::Unit::jsonSerialize 1 name @65`,
			`edge implements src/Geometry/Circle.php::App\Geometry::Circle -> src/Geometry/Circle.php::App\Geometry::Comparable 0.9 name @19`,
			`edge imports src/Geometry/Circle.php -> ./helpers.php 0.5 import @10`,
			`edge imports src/Geometry/Circle.php -> App\Contracts::Shape as ShapeContract 0.5 import @6`,
			`edge imports src/Geometry/Circle.php -> App\Support::clamp 0.5 import @8`,
			`edge imports src/Geometry/Circle.php -> Psr\Log::LoggerInterface 0.5 import @7`,
			`edge imports src/Geometry/Circle.php -> Psr\Log::NullLogger as Quiet 0.5 import @7`,
			`node class src/Geometry/Circle.php::App\Geometry::Circle 17:13-47 sig="final class Circle extends Shape implements ShapeContract, \\JsonSerializable" doc="A circle." exported`,
			`node constant src/Geometry/Circle.php::App\Geometry::Circle::UNIT 21:18-21 sig="UNIT = 1" exported`,
			`node constant src/Geometry/Circle.php::App\Geometry::VERSION 12:7-12 sig="VERSION = '1.0'" exported`,
			`node enum src/Geometry/Circle.php::App\Geometry::Unit 60:6-66 sig="enum Unit: string implements \\JsonSerializable" exported`,
			`node field src/Geometry/Circle.php::App\Geometry::Circle::cache 23:30-23 sig="$cache = null"`,
			`node field src/Geometry/Circle.php::App\Geometry::Circle::name 24:12-24 sig="$name = 'circle'" exported`,
			`node field src/Geometry/Circle.php::App\Geometry::Circle::radius 22:19-22 sig="$radius"`,
			`node field src/Geometry/Circle.php::App\Geometry::Circle::tags 24:30-24 sig="$tags = []" exported`,
			`node file src/Geometry/Circle.php 1:0-72`,
			`node function src/Geometry/Circle.php::App\Geometry::area_of 68:10-71 sig="function area_of(Circle $c): float" exported`,
			`node interface src/Geometry/Circle.php::App\Geometry::Comparable 54:7-58 sig="trait Comparable" exported`,
			`node interface src/Geometry/Circle.php::App\Geometry::Measurable 49:11-52 sig="interface Measurable extends \\Countable, Sized" exported`,
			`node method src/Geometry/Circle.php::App\Geometry::Circle::__construct 26:21-30 sig="public function __construct(float $radius, private LoggerInterface $log = new Quiet())" exported`,
			`node method src/Geometry/Circle.php::App\Geometry::Circle::area 33:21-37 sig="public function area(): float" doc="The area." exported`,
			`node method src/Geometry/Circle.php::App\Geometry::Circle::jsonSerialize 46:21-46 sig="public function jsonSerialize(): mixed" exported`,
			`node method src/Geometry/Circle.php::App\Geometry::Circle::scale 39:22-42 sig="private function scale(float $k): self"`,
			`node method src/Geometry/Circle.php::App\Geometry::Circle::square 44:31-44 sig="protected static function square(float $x): float"`,
			`node method src/Geometry/Circle.php::App\Geometry::Comparable::area 56:30-56 sig="abstract public function area(): float" exported`,
			`node method src/Geometry/Circle.php::App\Geometry::Comparable::compare 57:21-57 sig="public function compare(Measurable $o): int" exported`,
			`node method src/Geometry/Circle.php::App\Geometry::Measurable::measure 51:21-51 sig="public function measure(): float" exported`,
			`node method src/Geometry/Circle.php::App\Geometry::Unit::jsonSerialize 65:21-65 sig="public function jsonSerialize(): mixed" exported`,
			`node namespace src/Geometry/Circle.php::App\Geometry 4:11-4 sig="namespace App\\Geometry" exported`,
			`node variant src/Geometry/Circle.php::App\Geometry::Unit::Foot 63:10-63 sig="case Foot = 'ft'" exported`,
			`node variant src/Geometry/Circle.php::App\Geometry::Unit::Metre 62:10-62 sig="case Metre = 'm'" exported`,
			`unresolved calls src/Geometry/Circle.php::App\Geometry::Circle::__construct -> $this.log.info @29:9`,
			`unresolved calls src/Geometry/Circle.php::App\Geometry::Circle::__construct -> Quiet @26:79`,
			`unresolved calls src/Geometry/Circle.php::App\Geometry::Circle::__construct -> clamp @28:25`,
			`unresolved calls src/Geometry/Circle.php::App\Geometry::Circle::jsonSerialize -> parent.jsonSerialize @46:53`,
			`unresolved calls src/Geometry/Circle.php::App\Geometry::Comparable::compare -> $o.measure @57:76`,
			`unresolved calls src/Geometry/Circle.php::App\Geometry::area_of -> $c.area @70:12`,
			`unresolved extends src/Geometry/Circle.php::App\Geometry::Circle -> Shape @17:28`,
			`unresolved extends src/Geometry/Circle.php::App\Geometry::Measurable -> Sized @49:42`,
			`unresolved extends src/Geometry/Circle.php::App\Geometry::Measurable -> \Countable @49:30`,
			`unresolved implements src/Geometry/Circle.php::App\Geometry::Circle -> ShapeContract @17:45`,
			`unresolved implements src/Geometry/Circle.php::App\Geometry::Circle -> \JsonSerializable @17:60`,
			`unresolved implements src/Geometry/Circle.php::App\Geometry::Unit -> \JsonSerializable @60:30`,
		})
	})
	t.Run("braced namespaces", func(t *testing.T) {
		t.Parallel()
		expectFacts(t, "index.php", "php", `<?php
namespace Lib\A {
    function helper() { return 1; }
    class Box { public function get() { return helper(); } }
}

namespace {
    use Lib\A\Box;
    $box = new Box();
    echo $box->get();
}
`, []string{
			`edge calls index.php -> index.php::Lib\A::Box 0.9 name @9`,
			`edge calls index.php::Lib\A::Box::get -> index.php::Lib\A::helper 0.9 name @4`,
			`edge contains index.php -> index.php::Lib\A 1 name @2`,
			`edge contains index.php::Lib\A -> index.php::Lib\A::Box 1 name @4`,
			`edge contains index.php::Lib\A -> index.php::Lib\A::helper 1 name @3`,
			`edge contains index.php::Lib\A::Box -> index.php::Lib\A::Box::get 1 name @4`,
			`edge imports index.php -> Lib\A::Box 0.5 import @8`,
			`node class index.php::Lib\A::Box 4:11-4 sig="class Box" exported`,
			`node file index.php 1:0-12`,
			`node function index.php::Lib\A::helper 3:14-3 sig="function helper()" exported`,
			`node method index.php::Lib\A::Box::get 4:33-4 sig="public function get()" exported`,
			`node namespace index.php::Lib\A 2:11-5 sig="namespace Lib\\A" exported`,
			`unresolved calls index.php -> $box.get @10:10`,
		})
	})
}

func TestPHPImports(t *testing.T) {
	t.Parallel()
	cases := []struct {
		src  string
		want []string
	}{
		{`use App\Models\User;`, []string{`App\Models::User`}},
		{`use \App\Models\User as U;`, []string{`App\Models::User as U`}},
		{`use DateTime, Foo\Bar;`, []string{`::DateTime`, `Foo::Bar`}},
		{`use function App\Support\clamp;`, []string{`App\Support::clamp`}},
		{`use const App\LIMIT;`, []string{`App::LIMIT`}},
		{`use App\{Models\User, Http\Request as Req};`, []string{`App\Models::User`, `App\Http::Request as Req`}},
		{`require 'vendor/autoload.php';`, []string{`vendor/autoload.php`}},
		{`require_once __DIR__ . '/../lib/x.php';`, []string{`./../lib/x.php`}},
		{`include_once dirname(__FILE__) . '/x.php';`, []string{`./x.php`}},
		{`include "tpl.php";`, []string{`tpl.php`}},
		{`require $base . '/x.php';`, nil}, // computed: no target
	}
	for _, c := range cases {
		ff, err := Extract(context.Background(), "i.php", "php", []byte("<?php\n"+c.src+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range ff.Edges {
			if e.Kind == graph.EdgeImports {
				got = append(got, e.To)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: imports %q, want %q", c.src, got, c.want)
		}
	}
}

func TestPHPSyntaxErrorKeepsWhatParsed(t *testing.T) {
	t.Parallel()
	src := `<?php
class A {
    public function ok() {}
    public function broken( {}
    public function after() { $this->ok(); }
}
`
	expectPartial(t, "e.php", "php", src, "4", "e.php::A", "e.php::A::ok", "e.php::A::after")
}

func TestPHPConstructsAreNotCalls(t *testing.T) {
	t.Parallel()
	src := "<?php\nif (isset($a) && !EMPTY($b)) { eval('1;'); strlen($a); }\n"
	ff, err := Extract(context.Background(), "c.php", "php", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	for _, u := range ff.Unresolved {
		calls = append(calls, u.Name)
	}
	if want := []string{"strlen"}; !slices.Equal(calls, want) {
		t.Errorf("calls = %q, want %q", calls, want)
	}
}
