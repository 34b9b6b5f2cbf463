"""Files the portal's backend writes are its user's alone (issue 18, item 8).

Reflex's disk state manager pickles every tab's state, the portal session token included, under
``.states/`` with the process umask (0644 files, a 0755 directory): any local user could read a
token and, with it, a signed-in state. At backend start-up the states directory becomes 0700, the
states already there 0600, and the process umask 077, so that every file the backend creates from
then on (state pickles, the session store, uploads, caches) is 0600 and every directory 0700.
The compiled frontend is written before, by ``reflex run``/``export``, and keeps its modes.
"""

import os
from pathlib import Path

PRIVATE_UMASK = 0o077


def make_private(states_directory: Path) -> None:
    """Sets the umask of this process and closes the existing states to other users."""
    os.umask(PRIVATE_UMASK)
    states_directory.mkdir(parents=True, exist_ok=True)
    states_directory.chmod(0o700)
    for path in states_directory.iterdir():
        if path.is_file():
            path.chmod(0o600)
