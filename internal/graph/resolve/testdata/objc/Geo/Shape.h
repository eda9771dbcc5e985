#import <Foundation/Foundation.h>

@interface Shape : NSObject
- (double)area;
- (void)scale:(double)k;
- (void)scale:(double)k with:(int)j;
+ (instancetype)make;
@end

void helper(void);
