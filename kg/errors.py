"""Every error paperkg raises on purpose.

A :class:`PaperkgError` is a problem with the user's input or arguments; the CLI prints its
message as one line and exits with status 1. Anything else is a bug and keeps its traceback.
"""

from __future__ import annotations


class PaperkgError(Exception):
    """Base class: a problem the user can fix, explained in one line."""


class InputError(PaperkgError, ValueError):
    """A bad input file or record.

    The message names the file and, when known, the line, so the user can find it.
    """

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None) -> None:
        self.path = path
        self.line = line
        self.reason = message
        where = ""
        if path is not None:
            where = f"{path}:{line}: " if line is not None else f"{path}: "
        super().__init__(f"{where}{message}")


class UnknownFormatError(InputError):
    """The format of an input could not be recognised (or a forced format is unknown)."""


class WorkspaceError(PaperkgError, ValueError):
    """A build folder is missing, incomplete or from an incompatible version."""


class NotFoundError(PaperkgError, LookupError):
    """A name or id the user asked for is not in the graph (the message lists close matches)."""


class QueryError(PaperkgError, ValueError):
    """A SPARQL or search query is malformed or not allowed."""
