package com.example.app

fun local() {}
