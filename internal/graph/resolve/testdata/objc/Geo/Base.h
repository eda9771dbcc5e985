#import <Foundation/Foundation.h>

@interface Base : NSObject
- (void)reset;
@end
