"""The app package re-exports load from its util module."""
from .util import load
