"""Some unit tests import the Reflex app (``portal.portal``), whose disk state manager purges
the expired states of its directory as it starts. Each test process gets a directory of its
own: xdist workers then never purge under each other's feet, nor touch a running portal's."""

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest

_states = tempfile.mkdtemp(prefix="patchbay-states-")
os.environ["REFLEX_STATES_WORKDIR"] = _states
atexit.register(shutil.rmtree, _states, ignore_errors=True)


@pytest.fixture
def serving_worker() -> Iterator[None]:
    """The worker serving, as it starts, and left so: the drain tests move its phase and count."""
    # Imported here: it imports Reflex, which must find the directory set above.
    from portal import drain

    drain.worker.phase = drain.Phase.SERVING
    yield
    drain.worker.phase = drain.Phase.SERVING
    drain.worker.requests_in_progress = 0
