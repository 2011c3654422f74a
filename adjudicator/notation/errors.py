"""The exceptions the strict parser raises.

Like python-chess's ``InvalidMoveError`` / ``AmbiguousMoveError``, each exception is a
``ValueError`` subclass saying precisely what could not be read; it carries the
:class:`~adjudicator.diagnostics.Diagnostic` (line, rule, message, suggestion). The rules a
diagnostic cites are :class:`adjudicator.diagnostics.Rule`.
"""

from __future__ import annotations

from adjudicator.diagnostics import Diagnostic

COUNT_RULE_TEXT = (
    "Please use units to distinguish between territory count and IPC count, i.e. UK 30/$32"
)
"""IAAPA Post Combat Orders, quoted in the count diagnostics."""


class NotationError(ValueError):
    """A turn email has a line that cannot be read (raised by the strict parser)."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(
            f"line {diagnostic.line}: {diagnostic.message} "
            f"({diagnostic.citation}); {diagnostic.suggestion}"
        )
        self.diagnostic = diagnostic

    @property
    def line(self) -> int:
        """The 1-based line of the email (0: the email as a whole)."""
        return self.diagnostic.line


class UnreadableOrderError(NotationError):
    """A line in an orders section that matches no order form (or has a bad number)."""


class UnknownNameError(NotationError):
    """A territory, sea zone or unit word that is no name, nor a decipherable misspelling."""


class AmbiguousNameError(NotationError):
    """A word equally near several names: the correct word is not readily decipherable."""


ERROR_CLASSES: dict[str, type[NotationError]] = {
    "unknown-name": UnknownNameError,
    "ambiguous-name": AmbiguousNameError,
}
"""Diagnostic code -> the exception the strict parser raises for it (default: unreadable)."""


def exception_for(diagnostic: Diagnostic) -> NotationError:
    """The precise exception for an error diagnostic."""
    return ERROR_CLASSES.get(diagnostic.code, UnreadableOrderError)(diagnostic)
