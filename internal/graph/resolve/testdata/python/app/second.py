def close():
    pass
