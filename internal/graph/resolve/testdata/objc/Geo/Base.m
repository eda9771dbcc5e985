#import "Base.h"

@implementation Base
- (void)reset {}
@end
