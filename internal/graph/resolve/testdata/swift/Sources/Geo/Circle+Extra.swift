extension Circle {
    func extra() {}
}
