package com.example.geo

class Square {
    fun area(): Double = 2.0
    fun draw() {}
}
