"""prometheus-client's multi-process mode: what several workers count, one scrape adds up."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_WORKER = """
from portal import metrics
metrics.LOGINS.labels("success").inc({count})
metrics.WEBSOCKET_CLIENTS.inc({clients})
"""
_SCRAPE = "from portal import metrics; print(metrics.render()[0].decode())"


def _run(code: str, directory: Path) -> str:
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(directory)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


def test_a_scrape_sums_the_counters_of_every_worker(tmp_path: Path) -> None:
    _run(_WORKER.format(count=3, clients=2), tmp_path)
    _run(_WORKER.format(count=4, clients=5), tmp_path)
    text = _run(_SCRAPE, tmp_path)
    assert 'patchbay_logins_total{outcome="success"} 7.0' in text
    # Live gauges count only processes still running: both workers above have exited and
    # nothing marked them dead, so their files still count until the worker says it left.
    assert "patchbay_websocket_clients 7.0" in text


def test_a_stopped_worker_leaves_the_websocket_gauge(tmp_path: Path) -> None:
    code = _WORKER.format(count=1, clients=3) + "import os; metrics.worker_exited(os.getpid())"
    _run(code, tmp_path)
    _run(_WORKER.format(count=1, clients=2), tmp_path)
    text = _run(_SCRAPE, tmp_path)
    assert "patchbay_websocket_clients 2.0" in text
    assert 'patchbay_logins_total{outcome="success"} 2.0' in text
