"""Frozen dataclasses that are quick to make, for the records a turn makes thousands of.

``@dataclass(frozen=True)`` guards its fields with a ``__setattr__`` that raises, so the
``__init__`` it writes must go around its own guard: one call of ``object.__setattr__`` a
field. Reading and checking a turn makes hundreds of such records (unit lists, diagnostics,
origins, sorties), and those calls were about a twentieth of the work. :func:`quick_init`
gives a frozen dataclass an ``__init__`` with the same signature that stores the fields in
the instance's ``__dict__`` (where ``object.__setattr__`` puts them), then calls
``__post_init__`` if there is one. Everything else is the dataclass's own: the guard against
assignment, equality, the hash, ``repr``, ``dataclasses.replace``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

_Record = TypeVar("_Record")


def quick_init(cls: type[_Record]) -> type[_Record]:
    """``cls``, a frozen dataclass with an instance ``__dict__``, with a quicker ``__init__``
    (see the module's docstring). A class it cannot serve exactly (slots, keyword-only
    fields, init-only variables, no generated ``__init__``) is refused at import."""
    params = getattr(cls, dataclasses._PARAMS, None)  # type: ignore[attr-defined]
    if params is None or not params.frozen or not params.init:
        raise TypeError(f"{cls.__name__}: quick_init takes a frozen dataclass with an __init__")
    if "__slots__" in cls.__dict__:
        raise TypeError(f"{cls.__name__}: a class with slots has no __dict__ to fill")
    every = getattr(cls, dataclasses._FIELDS).values()  # type: ignore[attr-defined]
    if any(f._field_type is not dataclasses._FIELD for f in every):  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__}: init-only and class variables are not handled")
    names: dict[str, Any] = {"FACTORY": dataclasses._HAS_DEFAULT_FACTORY}  # type: ignore[attr-defined]
    params_src: list[str] = []
    body: list[str] = []
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if f.kw_only:
            raise TypeError(f"{cls.__name__}.{f.name}: keyword-only fields are not handled")
        default, factory = f.default, f.default_factory
        if f.init:
            if default is not dataclasses.MISSING:
                names[f"_d_{f.name}"] = default
                params_src.append(f"{f.name}=_d_{f.name}")
            elif factory is not dataclasses.MISSING:
                names[f"_f_{f.name}"] = factory
                params_src.append(f"{f.name}=FACTORY")
                body.append(f"    if {f.name} is FACTORY:\n        {f.name} = _f_{f.name}()")
            else:
                params_src.append(f.name)
            body.append(f"    d[{f.name!r}] = {f.name}")
        elif factory is not dataclasses.MISSING:
            names[f"_f_{f.name}"] = factory
            body.append(f"    d[{f.name!r}] = _f_{f.name}()")
        # a field outside __init__ with a plain default is read from the class, as ever
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    source = (
        f"def __init__(self, {', '.join(params_src)}):\n    d = self.__dict__\n"
        + "\n".join(body)
        + "\n"
    )
    exec(source, names)  # noqa: S102 (the source is made above from the fields' names)
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__annotations__ = dict(cls.__init__.__annotations__)
    init.__doc__ = cls.__init__.__doc__
    setattr(cls, "__init__", init)  # noqa: B010 (mypy refuses assigning a method)
    return cls
