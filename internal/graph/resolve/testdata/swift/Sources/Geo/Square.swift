struct Square {
    func area() -> Double { 2 }
    func draw() {}
}

func helper() {}
