"""Shapes: a tiny corpus for the Python ground-truth test."""
from .base import Drawable, Shape
from .square import Square as Sq

__all__ = ["Drawable", "Shape", "Sq"]
