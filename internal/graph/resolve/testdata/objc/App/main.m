#import "Shape.h"
#import "Other.h"

void run(Shape *s, id any) {
    [s area];
    [s scale:2.0];
    [s scale:2.0 with:1];
    [any area];
    Shape *t = [Shape make];
    [t scale:1.0];
    helper();
}
