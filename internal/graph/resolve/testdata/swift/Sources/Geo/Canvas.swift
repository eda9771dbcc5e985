class Canvas {
    let shape: Circle
    init(shape: Circle) { self.shape = shape }
    func paint(_ c: Circle, any: Shape) {
        let s = Square()
        helper()
        c.area()
        s.area()
        c.extra()
        self.shape.draw()
        any.draw()
        let u = make()
        u.only()
        late()
    }
}
