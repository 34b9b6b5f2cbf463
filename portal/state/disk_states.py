"""Reflex's disk state manager, its expired states looked for once a minute instead of after
every write.

Without Redis a worker keeps each tab's states as files under ``.states/``, one per state class
the tab touched (about thirty a page load), and Reflex removes those untouched for an hour. It
looks for them by listing the directory and reading each file's time after every write to disk,
that is every two seconds while a tab is busy: with 2 000 files that listing was a third of
the portal's CPU for a page load, and it grows with every tab of the hour
(docs/decisions/disk-states-purge.md). Expired states are still removed, within a minute of
their hour; a state read back is unchanged.
"""

import time

from reflex.istate.manager.disk import StateManagerDisk

PURGE_INTERVAL_SECONDS = 60.0


class DiskStates(StateManagerDisk):
    """``StateManagerDisk`` whose purge of expired states runs at most once a minute."""

    _last_purge: float | None = None

    def _purge_expired_states(self) -> None:
        now = time.monotonic()
        if self._last_purge is not None and now - self._last_purge < PURGE_INTERVAL_SECONDS:
            return
        self._last_purge = now
        super()._purge_expired_states()
