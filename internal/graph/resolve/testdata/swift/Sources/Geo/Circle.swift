public class Circle {
    public func area() -> Double { 1 }
    public func draw() {}
    public func only() {}
}
