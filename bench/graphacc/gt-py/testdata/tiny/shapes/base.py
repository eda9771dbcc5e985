from abc import ABC, abstractmethod
from typing import Protocol


class Drawable(Protocol):
    def draw(self) -> str: ...


class Shape(ABC):
    sides: int = 0

    @abstractmethod
    def area(self) -> float: ...

    def describe(self) -> str:
        return f"{self.label()} {self.area()}"

    def label(self) -> str:
        return type(self).__name__


def total_area(shapes: "list[Shape]") -> float:
    return sum(s.area() for s in shapes)
