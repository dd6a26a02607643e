"""Typed errors, mapped to outcomes in one place (caredesk.errors.ERROR_OUTCOMES).

Handlers raise these; the state machine's Retry/Catch decide what happens next, using the
error name (the class name) that Lambda reports as `errorType`.
"""

from __future__ import annotations


class CareDeskError(Exception):
    """Base class: a failure the system understands and can report plainly."""


class UnknownTierError(CareDeskError):
    """A key or a caller named a tier that does not exist (never defaulted)."""


class InvalidRequestError(CareDeskError):
    """A request or step state failed validation (maps to 400 at the API)."""


class MalformedStateError(CareDeskError):
    """A step received state that does not match its contract."""


class UnsupportedFormatError(CareDeskError):
    """An uploaded document's type is not one ingest can convert."""


class CorruptDocumentError(CareDeskError):
    """An uploaded document could not be parsed."""


class EmptyDocumentError(CareDeskError):
    """An uploaded document has no usable text."""


class DocumentEncodingError(CareDeskError):
    """A text document is not valid in any supported encoding."""


class DocumentTooLargeError(CareDeskError):
    """An uploaded document exceeds the configured size limit."""


class EmbeddingError(CareDeskError):
    """The embedder could not produce vectors for the given input."""


class DatabaseUnavailableError(CareDeskError):
    """Postgres could not be reached (transient: retried by the state machine)."""
