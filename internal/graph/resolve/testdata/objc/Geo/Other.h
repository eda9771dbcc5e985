#import <Foundation/Foundation.h>

@interface Other : NSObject
- (double)area;
@end
