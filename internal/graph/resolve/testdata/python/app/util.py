def load(path):
    return parse(path)


def parse(text):
    return text.strip()


def helper():
    return 1
