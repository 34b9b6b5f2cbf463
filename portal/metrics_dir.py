"""The directory of prometheus-client's multi-process mode, named before the library loads.

``prometheus_client`` reads ``PROMETHEUS_MULTIPROC_DIR`` once, when it is imported: the process
that starts the workers (``rxconfig.py`` runs in it first) names a fresh directory here, and each
worker inherits it through the environment (see ``portal.metrics``). No import of the library.
"""

import os
import shutil
import tempfile

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
# Set once the directory is fresh: the workers, which inherit it, leave the files alone.
_READY_ENV = "PATCHBAY_METRICS_DIR_READY"


def ensure_multiprocess_dir() -> str:
    """Names a fresh, empty directory for the workers' samples unless one is named already
    (the operator's, or the one the parent process named); returns it."""
    directory = os.environ.get(MULTIPROC_ENV)
    if directory and os.environ.get(_READY_ENV) == directory:
        return directory  # a worker: its parent made it fresh
    if directory:
        # The operator's directory: the samples of a previous run must not be added in.
        shutil.rmtree(directory, ignore_errors=True)
        os.makedirs(directory, exist_ok=True)
    else:
        directory = tempfile.mkdtemp(prefix="patchbay-metrics-")
        os.environ[MULTIPROC_ENV] = directory
    os.environ[_READY_ENV] = directory
    return directory
