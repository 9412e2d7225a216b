# SPDX-License-Identifier: MIT
"""The one base of every result and value class, and the truthless mixin.

``Decision``, ``Judgment``, ``Report``, ``Metric``, ``Observation`` and
``Policy`` are values: what a gate decided, kept in receipts.  A receipt
that could be edited after the decision (``report.mean.meets = True``)
would be a second, unchecked decision, so values are immutable all the way
down, compare by value and hash accordingly, like ``packaging``'s
``_BaseVersion``: the comparison lives here once, and each class only says
what it consists of.
"""

from __future__ import annotations

import enum

from ._describe import format_number

TYPE_CHECKING = False

__all__ = ["NoTruthValue", "Value", "shown"]

_set = object.__setattr__


class NoTruthValue:
    """A mixin: ``bool(x)`` raises ``TypeError``.

    Every verdict-like object would otherwise be truthy, so
    ``if evaluate(raw):`` or ``if verdict:`` would release on INVALID
    evidence.  Enums take it as a mixin too (``class Verdict(NoTruthValue,
    enum.Enum)``): it defines nothing but ``__bool__``.
    """

    __slots__ = ()

    def __bool__(self) -> bool:
        name = type(self).__name__
        article = "an" if name[:1] in "AEIOU" else "a"
        if isinstance(self, enum.Enum):
            hint = f"compare with 'is {name}.PASS'"
        else:
            hint = f"test '{name.lower()}.verdict is Verdict.PASS'"
        raise TypeError(f"{article} {name} has no truth value; {hint}")


def shown(value: object) -> str:
    """*value* for a ``repr``: never raises, never a megabyte long.

    An enum member is ``Verdict.PASS``; a huge int is described by its size
    (``repr`` of an int over 4300 digits raises ``ValueError`` on Python
    3.11+); anything else is its ``repr``.
    """
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if type(value) is int:
        return format_number(value)
    return repr(value)


def _slots(cls: type) -> tuple[str, ...]:
    """Every slot of *cls*, base classes first."""
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        declared = klass.__dict__.get("__slots__", ())
        names.extend((declared,) if type(declared) is str else declared)
    return tuple(names)


def _restore(cls: type[Value], values: tuple[object, ...]) -> Value:
    """Rebuild a pickled value: its slots as they were."""
    value = object.__new__(cls)
    for name, item in zip(_slots(cls), values):
        _set(value, name, item)
    return value


class Value:
    """An immutable value: read-only attributes, equality and hash by value.

    A subclass declares its fields as ``__slots__`` and fills them in
    ``__init__`` with ``self._fill(name=value, ...)``; afterwards setting or
    deleting any attribute raises ``AttributeError``.  Two values are equal
    when they are of the same class and ``_key()`` is equal; by default the
    key is every slot with its type, so a score of ``1`` and one of ``1.0``
    (or ``True``) are different values, as they are different evidence.
    ``_hash_key()`` may be a cheaper part of the key, or leave out what
    cannot be hashed (a grader's members).  ``repr`` shows the fields named
    in ``_shown``.  Values pickle by their slots.
    """

    __slots__ = ()

    # The fields the repr shows, in order.
    _shown: tuple[str, ...] = ()

    def _fill(self, **fields: object) -> None:
        """Set the slots once, in ``__init__``."""
        for name, item in fields.items():
            _set(self, name, item)

    if TYPE_CHECKING:
        # Hidden from type checkers, which take a class with __setattr__ to
        # accept any attribute assignment at all.
        pass
    else:

        def __setattr__(self, name, value):
            raise AttributeError(f"{type(self).__name__} is immutable: cannot set {name!r}")

        def __delattr__(self, name):
            raise AttributeError(f"{type(self).__name__} is immutable: cannot delete {name!r}")

    def _key(self) -> tuple[object, ...]:
        """What equality compares: every slot, with its type."""
        return tuple((type(item), item) for item in self._slot_values())

    def _hash_key(self) -> tuple[object, ...]:
        """What the hash is taken of: all or part of ``_key()``."""
        return self._key()

    def _slot_values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _slots(type(self)))

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self) or not isinstance(other, Value):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._hash_key())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={shown(getattr(self, name))}" for name in self._shown)
        return f"{type(self).__name__}({fields})"

    def __reduce__(self) -> tuple[object, tuple[type[Value], tuple[object, ...]]]:
        # The default protocol sets slots through __setattr__, which refuses.
        return (_restore, (type(self), self._slot_values()))
