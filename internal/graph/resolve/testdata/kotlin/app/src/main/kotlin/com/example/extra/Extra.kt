package com.example.extra

fun extraOnly() {}
