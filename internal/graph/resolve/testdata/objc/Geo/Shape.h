#import "Base.h"
#import "Other.h"

@interface Shape : Base
@property (nonatomic) Other *other;
- (double)area;
- (void)scale:(double)k;
- (void)scale:(double)k with:(int)j;
+ (instancetype)make;
- (void)redraw;
@end

void helper(void);
