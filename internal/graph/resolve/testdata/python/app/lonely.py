def only_here():
    pass
