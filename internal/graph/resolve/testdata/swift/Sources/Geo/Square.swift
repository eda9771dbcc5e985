struct Square {
    func area() -> Double { 2 }
    func draw() {}
}

func helper() {}

func twice() {
    let q = Square()
    q.area()
}
