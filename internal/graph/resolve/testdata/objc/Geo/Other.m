#import "Other.h"

@implementation Other
- (double)area { return 2; }
@end
