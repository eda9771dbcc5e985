import Foundation
import Geo

func run() {
    let c = Circle()
    c.area()
    helper()
}
