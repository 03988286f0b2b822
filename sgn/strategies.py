"""Hypothesis strategies for SGN (the extra `hypothesis`): the public name of
`sgn.testing.strategies`, where they are written (docs/strategies.md)."""

from .testing.strategies import *  # noqa: F401,F403
from .testing.strategies import __all__  # noqa: F401
