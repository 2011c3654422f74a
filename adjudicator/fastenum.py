"""An enumeration hashed by identity, for the engine's hot dictionary keys.

``enum.Enum`` hashes a member by hashing its name in a Python-level ``__hash__``: the
declaration checks look unit types and powers up in dictionaries tens of thousands of times a
turn, and that one method was a tenth of their time. Members are singletons and compare by
identity (Enum defines no ``__eq__``), so the identity hash agrees with equality. Iteration
order of a set of members was never stable across processes (string hashing is randomised),
so nothing may rely on it either way.
"""

from __future__ import annotations

from enum import Enum


class FastEnum(Enum):
    """An :class:`~enum.Enum` whose members hash by identity (``object.__hash__``, in C)."""

    __hash__ = object.__hash__
