import shapes
from shapes import Sq as Box
from shapes.base import total_area

UNIT = Box(1)


def report(handler, items):
    box = Box(3)
    handler(total_area([box, UNIT]))
    getattr(box, "draw")()
    for item in items:
        item.draw()

    def inner() -> str:
        return shapes.Sq(2).describe()

    return inner() + str(box.diagonal)


class Renderer:
    target: shapes.Drawable

    def __init__(self, target: shapes.Drawable) -> None:
        self.target = target

    def render(self) -> str:
        return self.target.draw()

    fallback = Box(0)


def use_dependency() -> int:
    from extlib import Ext

    return Ext().run()
