"""A dependency of the tiny corpus, found only through --extra-path."""


class Ext:
    def run(self) -> int:
        return 1
