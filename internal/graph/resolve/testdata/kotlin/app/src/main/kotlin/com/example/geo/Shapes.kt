package com.example.geo

class Circle {
    fun area(): Double = 1.0
    fun draw() {}
    fun only() {}
}

fun helper() {}
