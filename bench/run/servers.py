"""The servers under test: the built portal on its production server (from a copy of the tree
when asked, so a build never disturbs the working tree's ``.web``), and the static server
(Granian, ASGI, as many workers) that gives the HTTP limit."""

import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import httpx
import psutil

from portal.settings import backend_workers

ROOT = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 600
# The portal's production default with Redis unless GRANIAN_WORKERS says otherwise, set for both
# servers so they match.
WORKERS = int(os.environ.get("GRANIAN_WORKERS") or backend_workers())
# What serves the portal, as the results name it.
SERVER = "python -m portal.serve"
_SKIP = (".git", ".venv", "data", ".web", ".states", "__pycache__", ".mypy_cache", ".ruff_cache")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def copy_tree(destination: Path) -> Path:
    """The repository copied to ``destination``; its own ``.web`` (node_modules, build) is kept
    between runs, the virtualenv is shared."""
    destination.mkdir(parents=True, exist_ok=True)
    excludes = [f"--exclude={name}" for name in _SKIP] + ["--exclude=bench/results"]
    subprocess.run(
        ["rsync", "-a", "--delete", *excludes, f"{ROOT}/", f"{destination}/"], check=True
    )
    venv = destination / ".venv"
    if not venv.exists():
        venv.symlink_to(ROOT / ".venv")
    return destination


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    os.killpg(process.pid, 15)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 9)
        process.wait()


def _wait(url: str, ready: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped at start:\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(url + ready, timeout=5, follow_redirects=True).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(1)
    raise RuntimeError(
        f"the server did not start in {STARTUP_SECONDS} s:\n{log.read_text()[-3000:]}"
    )


def portal_environment(port: int, database_url: str, redis_url: str) -> dict[str, str]:
    """The environment the portal is measured in, serving on ``port``."""
    return {
        **os.environ,
        "PORT": str(port),
        "ENVIRONMENT": "production",
        # The bench's staff sign in with their password, as the demo's do.
        "SECOND_FACTOR_REQUIRED": "false",
        # Production refuses to start without it; no second factor is set up in the bench.
        "SECOND_FACTOR_KEY": os.environ.get("SECOND_FACTOR_KEY") or secrets.token_urlsafe(32),
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "PORTAL_PUBLIC_URL": f"http://127.0.0.1:{port}",
        "GRANIAN_WORKERS": str(WORKERS),
        # "open a ticket" measures opening tickets, not the 429 of the 31st in a minute.
        "TICKET_MESSAGES_PER_MINUTE": "1000000",
        # The load runs measure a token's read, not its rate limit's 429s.
        "API_TOKEN_RATE_LIMIT": "1000000000",
    }


@contextmanager
def portal(tree: Path, database_url: str, redis_url: str, log: Path) -> Iterator["Server"]:
    """The portal as the image runs it: its pages built for ``port`` (the address they call is
    written into them), then the production server, ``python -m portal.serve``."""
    port = free_port()
    env = portal_environment(port, database_url, redis_url)
    python = str(tree / ".venv" / "bin" / "python")
    build = [python, "-m", "reflex", "export", "--frontend-only", "--no-zip"]
    with log.open("w") as output:
        subprocess.run(
            build, cwd=tree, env={**env, "REFLEX_ENV_MODE": "prod"}, stdout=output,
            stderr=subprocess.STDOUT, check=True,
        )  # fmt: skip
        process = subprocess.Popen(
            [python, "-m", "portal.serve", "--port", str(port), "--workers", str(WORKERS)],
            cwd=tree, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}"
        _wait(url, "/provider/api/service_types", process, log)
        _wait(url, "/login", process, log)
        yield Server(url, process)
    finally:
        _stop(process)


def static_server(folder: Path, log: Path) -> AbstractContextManager["Server"]:
    return granian_server("bench.run.static_app:app", {"BENCH_STATIC_DIR": str(folder)}, log)


@contextmanager
def granian_server(app: str, settings: dict[str, str], log: Path) -> Iterator["Server"]:
    """The ASGI ``app`` on Granian with as many workers as the portal, ``settings`` in its
    environment; it answers ``/_ready`` once started."""
    port = free_port()
    env = {**os.environ, **settings, "PYTHONPATH": str(ROOT)}
    command = [
        sys.executable, "-m", "granian", "--interface", "asgi", "--host", "127.0.0.1",
        "--port", str(port), "--workers", str(WORKERS), "--no-ws", app,
    ]  # fmt: skip
    with log.open("w") as output:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}"
        _wait(url, "/_ready", process, log)
        yield Server(url, process)
    finally:
        _stop(process)


class Server:
    def __init__(self, url: str, process: subprocess.Popen[bytes]) -> None:
        self.url = url
        self.process = process

    def rss_bytes(self) -> int:
        """Resident memory of the server and every process it started."""
        root = psutil.Process(self.process.pid)
        total = 0
        for process in [root, *root.children(recursive=True)]:
            try:
                total += process.memory_info().rss
            except psutil.NoSuchProcess:
                continue
        return total
