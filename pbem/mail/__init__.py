"""The email transport: configuration, composing, sending (with an outbox) and receiving.

pbem never needs mail to work: without a ``[mail]`` section it writes .eml
files to the outbox for the player to send, and reads turn files from .eml
files, a Maildir or an IMAP folder. docs/mail.md describes the settings.
"""

from __future__ import annotations

from pbem.mail.compose import (
    GAME_HEADER,
    PBEM_MIME,
    SUBJECT_PREFIX,
    Attachment,
    InlineImage,
    build_message,
    file_message,
    to_eml,
)
from pbem.mail.config import (
    MailConfig,
    MailConfigError,
    MailError,
    PasswordProvider,
    load_config,
    parse_config,
    password,
    password_provider,
)
from pbem.mail.imap import from_imap
from pbem.mail.receive import (
    FoundFile,
    IngestResult,
    attachments_from_eml,
    from_eml_files,
    from_maildir,
    ingest,
)
from pbem.mail.send import (
    RecipientsRefused,
    SendResult,
    queued,
    resend_outbox,
    send,
    send_bytes,
    send_or_queue,
    write_eml,
)

__all__ = [
    "GAME_HEADER",
    "PBEM_MIME",
    "SUBJECT_PREFIX",
    "Attachment",
    "FoundFile",
    "IngestResult",
    "InlineImage",
    "MailConfig",
    "MailConfigError",
    "MailError",
    "PasswordProvider",
    "RecipientsRefused",
    "SendResult",
    "attachments_from_eml",
    "build_message",
    "file_message",
    "from_eml_files",
    "from_imap",
    "from_maildir",
    "ingest",
    "load_config",
    "parse_config",
    "password",
    "password_provider",
    "queued",
    "resend_outbox",
    "send",
    "send_bytes",
    "send_or_queue",
    "to_eml",
    "write_eml",
]
