from .base import Drawable, Shape


class Square(Shape, Drawable):
    sides = 4

    def __init__(self, side: float) -> None:
        super().__init__()
        self.side = side

    def area(self) -> float:
        return self.side * self.side

    def draw(self) -> str:
        return "□" * self.sides

    @property
    def diagonal(self) -> float:
        return self.side * 2 ** 0.5


class Tile(Square):
    """A plain subclass: Square is no Protocol or ABC."""
