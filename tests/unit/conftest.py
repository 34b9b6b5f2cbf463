"""Some unit tests import the Reflex app (``portal.portal``), whose disk state manager purges
the expired states of its directory as it starts. Each test process gets a directory of its
own: xdist workers then never purge under each other's feet, nor touch a running portal's."""

import atexit
import os
import shutil
import tempfile

_states = tempfile.mkdtemp(prefix="patchbay-states-")
os.environ["REFLEX_STATES_WORKDIR"] = _states
atexit.register(shutil.rmtree, _states, ignore_errors=True)
