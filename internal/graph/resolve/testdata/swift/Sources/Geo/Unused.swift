func unused() {}
