package com.example.app

import com.example.geo.Circle
import com.example.geo.helper
import com.example.geo.*

fun main(c: Circle, unknown: Any) {
    val s = Square()
    helper()
    c.area()
    s.area()
    c.draw()
    unknown.draw()
    local()
    val u = make()
    u.only()
}

fun legacy() {
    val l = Legacy()
    l.old()
}

fun viaStar() {
    extraOnly()
}
