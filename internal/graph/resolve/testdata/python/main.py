from app import load


def main():
    return load("config.toml")
