package com.example.geo;

public class Legacy {
    public void old() {}
}
