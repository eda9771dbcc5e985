package treesitter

import "testing"

// TestC reads every kind of C definition. A prototype, an extern and a typedef
// give way to the definition of the same name below them; `typedef struct {…} T`
// is the struct T; a function pointer is a field or a variable, not a function.
func TestC(t *testing.T) {
	t.Parallel()
	expectFacts(t, "src/list.c", "c", `#include "list.h"
#include <stdio.h>
#define MAX 10
#define SQR(x) ((x) * (x))

/* A node of the list. */
struct node {
    int value;
    struct node *next;
    int (*compare)(const void *, const void *);
};

typedef struct node node_t;
typedef struct { int a, b; } pair_t;
typedef struct later later_t;
struct later { int v; };
typedef struct tree tree;
/* The tree. */
struct tree { tree *left; };
union num { int i; float f; };
enum color { RED, GREEN = 2 };
typedef int (*handler)(int);

static int counter = 0, *cursor;
extern int shared;
int table[3];

// Forward: the definition below is the node.
static int helper(int x);
const char *name(void);

// Adds.
int add(node_t *p, int b) {
    helper(b);
    p->next->compare(p, p);
    printf("%d", SQR(b));
    return (*p->compare)(p, p) + name()[0];
}

int helper(int x) { return x; }
`, []string{
		`node file src/list.c 1:0-41`,
		`node constant src/list.c::MAX 3:9-3 sig="#define MAX 10" exported`,
		`node function src/list.c::SQR 4:9-4 sig="#define SQR(x) ((x) * (x))" exported`,
		`node struct src/list.c::node 7:8-11 sig="struct node" doc="A node of the list." exported`,
		`node field src/list.c::node::value 8:9-8 sig="int value" exported`,
		`node field src/list.c::node::next 9:18-9 sig="struct node *next" exported`,
		`node field src/list.c::node::compare 10:11-10 sig="int (*compare)(const void *, const void *)" exported`,
		`node type_alias src/list.c::node_t 13:21-13 sig="typedef struct node node_t" exported`,
		`node field src/list.c::pair_t::a 14:22-14 sig="int a, b" exported`,
		`node field src/list.c::pair_t::b 14:25-14 sig="int a, b" exported`,
		`node struct src/list.c::pair_t 14:30-14 sig="struct" exported`,
		`node type_alias src/list.c::later_t 15:22-15 sig="typedef struct later later_t" exported`,
		`node field src/list.c::later::v 16:20-16 sig="int v" exported`,
		`node struct src/list.c::later 16:8-16 sig="struct later" exported`,
		`node field src/list.c::tree::left 19:21-19 sig="tree *left" exported`,
		`node struct src/list.c::tree 19:8-19 sig="struct tree" doc="The tree." exported`,
		`node field src/list.c::num::f 20:26-20 sig="float f" exported`,
		`node field src/list.c::num::i 20:17-20 sig="int i" exported`,
		`node struct src/list.c::num 20:7-20 sig="union num" exported`,
		`node enum src/list.c::color 21:6-21 sig="enum color" exported`,
		`node variant src/list.c::color::GREEN 21:19-21 sig="GREEN = 2" exported`,
		`node variant src/list.c::color::RED 21:14-21 sig="RED" exported`,
		`node type_alias src/list.c::handler 22:15-22 sig="typedef int (*handler)(int)" exported`,
		`node variable src/list.c::counter 24:12-24 sig="static int counter = 0, *cursor"`,
		`node variable src/list.c::cursor 24:26-24 sig="static int counter = 0, *cursor"`,
		`node variable src/list.c::shared 25:12-25 sig="extern int shared" exported`,
		`node variable src/list.c::table 26:5-26 sig="int table[3]" exported`,
		`node function src/list.c::name 30:13-30 sig="const char *name(void)" exported`,
		`node function src/list.c::add 33:5-38 sig="int add(node_t *p, int b)" doc="Adds." exported`,
		`node function src/list.c::helper 40:5-40 sig="int helper(int x)" doc="Forward: the definition below is the node."`,
		`edge imports src/list.c -> "list.h" 0.5 import @1`,
		`edge imports src/list.c -> <stdio.h> 0.5 import @2`,
		`edge contains src/list.c -> src/list.c::MAX 1 name @3`,
		`edge contains src/list.c -> src/list.c::SQR 1 name @4`,
		`edge contains src/list.c -> src/list.c::node 1 name @7`,
		`edge contains src/list.c::node -> src/list.c::node::value 1 name @8`,
		`edge contains src/list.c::node -> src/list.c::node::next 1 name @9`,
		`edge contains src/list.c::node -> src/list.c::node::compare 1 name @10`,
		`edge contains src/list.c -> src/list.c::node_t 1 name @13`,
		`edge contains src/list.c -> src/list.c::pair_t 1 name @14`,
		`edge contains src/list.c::pair_t -> src/list.c::pair_t::a 1 name @14`,
		`edge contains src/list.c::pair_t -> src/list.c::pair_t::b 1 name @14`,
		`edge contains src/list.c -> src/list.c::later_t 1 name @15`,
		`edge contains src/list.c -> src/list.c::later 1 name @16`,
		`edge contains src/list.c::later -> src/list.c::later::v 1 name @16`,
		`edge contains src/list.c -> src/list.c::tree 1 name @19`,
		`edge contains src/list.c::tree -> src/list.c::tree::left 1 name @19`,
		`edge contains src/list.c -> src/list.c::num 1 name @20`,
		`edge contains src/list.c::num -> src/list.c::num::f 1 name @20`,
		`edge contains src/list.c::num -> src/list.c::num::i 1 name @20`,
		`edge contains src/list.c -> src/list.c::color 1 name @21`,
		`edge contains src/list.c::color -> src/list.c::color::GREEN 1 name @21`,
		`edge contains src/list.c::color -> src/list.c::color::RED 1 name @21`,
		`edge contains src/list.c -> src/list.c::handler 1 name @22`,
		`edge contains src/list.c -> src/list.c::counter 1 name @24`,
		`edge contains src/list.c -> src/list.c::cursor 1 name @24`,
		`edge contains src/list.c -> src/list.c::shared 1 name @25`,
		`edge contains src/list.c -> src/list.c::table 1 name @26`,
		`edge contains src/list.c -> src/list.c::name 1 name @30`,
		`edge contains src/list.c -> src/list.c::add 1 name @33`,
		`edge contains src/list.c -> src/list.c::helper 1 name @40`,
		`edge calls src/list.c::add -> src/list.c::helper 0.9 name @34`,
		`edge calls src/list.c::add -> src/list.c::SQR 0.9 name @36`,
		`edge calls src/list.c::add -> src/list.c::name 0.9 name @37`,
		`unresolved calls src/list.c::add -> p.next.compare @35:5`,
		`unresolved calls src/list.c::add -> printf @36:5`,
		`unresolved calls src/list.c::add -> <expr> @37:12`,
	})
}

func TestCSyntaxErrorKeepsWhatParsed(t *testing.T) {
	t.Parallel()
	expectPartial(t, "src/broken.c", "c", "int ok(void) { return 0; }\n\nint broken(void) { return ; ) }\n\nint after(void) { return ok(); }\n", "3",
		"src/broken.c::ok", "src/broken.c::after")
}
