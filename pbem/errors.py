"""Typed errors. Each carries the exit code the CLI uses and a hint saying what to do.

Library code raises these; the CLI catches ``PbemError`` once, prints
``pbem: error: ...`` and ``pbem: hint: ...`` and exits with ``exit_code``.
The exit codes are part of the documented interface (docs/cli.md).
"""

from __future__ import annotations


class ExitCode:
    OK = 0
    GENERIC = 1
    USAGE = 2
    INVALID = 3  # input cannot be parsed: malformed file, truncated, bad order syntax
    ILLEGAL = 4  # understood, but the rules forbid it here (carries the rule number)
    AMBIGUOUS = 5  # understood, but matches more than one thing
    AUTH = 6  # signature, MAC, decryption, passphrase or key failure
    CHAIN = 7  # wrong game, broken chain, replayed or out-of-order file
    EQUIVOCATION = 8  # two different signed files claim the same place in the chain
    UNSUPPORTED = 9  # unknown format version or rules version
    NOT_FOUND = 10  # no such game, identity, seat or file
    MAIL = 11  # mail transport failure
    STATE = 12  # not your turn, game not started, game over
    LIMIT = 13  # a size limit was exceeded


class PbemError(Exception):
    """Base of every error pbem reports to a user."""

    exit_code: int = ExitCode.GENERIC
    default_hint: str = "check the path and its permissions"

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint if hint is not None else self.default_hint

    def __str__(self) -> str:
        return self.message


class UsageError(PbemError):
    """The command line, or the environment it runs in, is wrong: an argument or option is missing."""

    exit_code = ExitCode.USAGE
    default_hint = "run the command again with --help to see its arguments and options"


class NotConfirmed(UsageError):
    """A choice the player must make knowingly (the players' fingerprints) was not made."""

    default_hint = "compare the fingerprints with your opponents, then pass --expect SEAT=FPR or --yes"


class InvalidInput(PbemError):
    exit_code = ExitCode.INVALID
    default_hint = "the input is malformed; ask its sender for a fresh copy"


class LimitExceeded(InvalidInput):
    exit_code = ExitCode.LIMIT
    default_hint = "the file is larger than pbem accepts; it is not a genuine pbem file"


class EncodingError(InvalidInput):
    """Bytes that are not canonical pbem msgpack."""


class AuthError(PbemError):
    exit_code = ExitCode.AUTH
    default_hint = "the file was altered or not made by who it claims; ask its author to send it again"


class BadSignature(AuthError):
    pass


class WeakKey(AuthError):
    default_hint = "the key is a weak or non-canonical encoding; the card must be regenerated"


class WrongPassphrase(AuthError):
    default_hint = "check the passphrase (PBEM_PASSPHRASE or --passphrase-file)"


class NotAddressedToYou(AuthError):
    default_hint = "this part is encrypted to another player; only its seat can open it"


class FingerprintMismatch(AuthError):
    default_hint = "do not join: the proposal carries another key than the one your opponent told you"


class TamperedCiphertext(AuthError):
    default_hint = "the encrypted part was altered in transit; ask its author to send it again"


class ChainError(PbemError):
    exit_code = ExitCode.CHAIN
    default_hint = "run 'pbem status' to see which file the game expects next"


class WrongGame(ChainError):
    default_hint = "this file belongs to another game; receive it into that game instead"


class BrokenChain(ChainError):
    pass


class OutOfOrder(ChainError):
    default_hint = "receive the missing earlier file first, then this one again"


class Replayed(ChainError):
    default_hint = "this file was already processed; nothing to do"


class Equivocation(PbemError):
    exit_code = ExitCode.EQUIVOCATION
    default_hint = "both files were kept as evidence; run 'pbem verify GAME' and show them to the other players"


class Unsupported(PbemError):
    exit_code = ExitCode.UNSUPPORTED
    default_hint = "upgrade pbem, or ask the sender which version made the file"


class NotFound(PbemError):
    exit_code = ExitCode.NOT_FOUND
    default_hint = "run 'pbem status' to list the games in this home"


class StateError(PbemError):
    exit_code = ExitCode.STATE
    default_hint = "run 'pbem status' to see whose move it is"


class AlreadyExists(StateError):
    """What a command would create is already there (an identity in this home)."""

    default_hint = "use another --home for a second identity"


class OrderError(PbemError):
    """Base for order problems; carries where in the order text it happened."""

    exit_code = ExitCode.INVALID
    default_hint = "see docs/orders.md for the order syntax, or run 'pbem orders template GAME'"

    def __init__(
        self,
        message: str,
        *,
        hint: str | None = None,
        line: int | None = None,
        column: int | None = None,
        rule: str | None = None,
    ) -> None:
        super().__init__(message, hint=hint)
        self.line = line
        self.column = column
        self.rule = rule

    def __str__(self) -> str:
        where = ""
        if self.line is not None:
            where = f"line {self.line}"
            if self.column is not None:
                where += f", column {self.column}"
            where += ": "
        rule = f" [{self.rule}]" if self.rule else ""
        return f"{where}{self.message}{rule}"


class InvalidOrder(OrderError):
    exit_code = ExitCode.INVALID
    default_hint = "see docs/orders.md for the order syntax, or run 'pbem orders template GAME'"


class IllegalOrder(OrderError):
    exit_code = ExitCode.ILLEGAL
    default_hint = "run 'pbem orders template GAME' to list what you may do now"

    def __init__(self, message: str, *, rule: str, hint: str | None = None,
                 line: int | None = None, column: int | None = None) -> None:
        super().__init__(message, hint=hint, line=line, column=column, rule=rule)


class AmbiguousOrder(OrderError):
    exit_code = ExitCode.AMBIGUOUS
    default_hint = "name the unit or hex fully so the order matches exactly one"


class OrderErrors(PbemError):
    """Several order errors at once; the exit code is that of the first."""

    def __init__(self, errors: list[OrderError]) -> None:
        assert errors
        super().__init__(
            "; ".join(str(e) for e in errors), hint=errors[0].hint
        )
        self.errors = errors
        self.exit_code = errors[0].exit_code
