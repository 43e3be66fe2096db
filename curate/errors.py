"""User errors: reported as one line on stderr with a non-zero exit, never as a traceback."""


class UserError(Exception):
    """Something the user can fix: the message says what is wrong and what to do."""

    exit_code = 2
