"""Files the portal's backend writes are its user's alone (issue 18, item 8).

Reflex's disk state manager pickles every tab's state, the portal session token included, under
``.states/`` with the process umask (0644 files, a 0755 directory): any local user could read a
token and, with it, a signed-in state. At backend start-up the states directory becomes 0700, the
states already there 0600, and the process umask 077, so that every file the backend creates from
then on (state pickles, the session store, uploads, caches) is 0600 and every directory 0700.
The compiled frontend is written before, by ``reflex run``/``export``, and keeps its modes.

The embedded provider, which also runs from the command line with any umask, makes its data
directory and SQLite database private itself (``private_directory``, ``private_file``; issue
47, item 18).
"""

import logging
import os
import stat
from pathlib import Path

logger = logging.getLogger(__name__)

PRIVATE_UMASK = 0o077
PRIVATE_DIRECTORY = 0o700
PRIVATE_FILE = 0o600


def make_private(states_directory: Path) -> None:
    """Sets the umask of this process and closes the existing states to other users."""
    os.umask(PRIVATE_UMASK)
    states_directory.mkdir(parents=True, exist_ok=True)
    states_directory.chmod(0o700)
    for path in states_directory.iterdir():
        if path.is_file():
            path.chmod(0o600)


def private_directory(path: Path) -> None:
    """``path`` created 0700 if missing, else closed to other users."""
    path.mkdir(mode=PRIVATE_DIRECTORY, parents=True, exist_ok=True)
    _close_to_others(path, PRIVATE_DIRECTORY)


def private_file(path: Path) -> None:
    """``path`` created empty and 0600 if missing, before anyone opens it (SQLite gives its
    ``-wal`` and ``-shm`` files the mode of the database), else closed to other users."""
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, PRIVATE_FILE))
    _close_to_others(path, PRIVATE_FILE)


def _close_to_others(path: Path, allowed: int) -> None:
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & ~allowed:
        # Left by an earlier version, a copy, or a command run by hand with the usual umask.
        path.chmod(mode & allowed)
        logger.warning("%s was open to other users (%o): now %o", path, mode, mode & allowed)
