"""Instances of the production server (``python -m portal.serve``) behind deploy/nginx.conf run by
Debian's nginx, on a scratch database of the PostgreSQL server of ``DATABASE_URL`` and a Redis
of the test's own: what the drain and rolling-upgrade tests start, stop and load.

The instances serve the backend only (``--no-frontend``): the load is HTTP and the websocket,
which need no built page, and each start then takes seconds instead of a front-end build."""

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psycopg
import sqlalchemy as sa

from portal.settings import Settings
from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
NGINX = "/usr/sbin/nginx"
STARTUP_SECONDS = 180
DEMO_PASSWORD = "Patchbay-demo-2026"


def postgres_url() -> str:
    return os.environ.get("DATABASE_URL", "")


def can_run() -> bool:
    return postgres_url().startswith("postgres") and Path(NGINX).exists()


@contextmanager
def scratch_database(suffix: str) -> Iterator[str]:
    """A new database named after the one of ``DATABASE_URL``, dropped afterwards."""
    server = sa.make_url(Settings(database_url=postgres_url()).sqlalchemy_url)
    admin = server.set(drivername="postgresql").render_as_string(hide_password=False)
    name = f"{server.database}_{suffix}"
    with psycopg.connect(admin, autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        db.execute(f'CREATE DATABASE "{name}"')
    try:
        yield server.set(drivername="postgresql", database=name).render_as_string(
            hide_password=False
        )
    finally:
        with psycopg.connect(admin, autocommit=True) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass
class Instance:
    """One ``python -m portal.serve`` of the tree ``tree``, two workers, backend only."""

    name: str
    port: int
    env: Mapping[str, str]
    log: Path
    tree: Path = ROOT
    process: subprocess.Popen[bytes] | None = field(default=None, init=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**self.env, "PORT": str(self.port), "INSTANCE_NAME": self.name}
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "portal.serve", "--no-frontend", "--workers", "2",
                 "--host", "127.0.0.1"],
                cwd=self.tree, env=env, stdout=output, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip

    def wait_ready(self) -> None:
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            assert self.process is not None
            assert self.process.poll() is None, self.log_tail()
            try:
                if httpx.get(f"{self.url}/readyz", timeout=5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        raise AssertionError(f"{self.name} did not start:\n{self.log_tail()}")

    def terminate(self) -> None:
        """SIGTERM to the server's process, as ``docker stop`` and Kubernetes send it."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)

    def wait_exit(self, seconds: float) -> int:
        assert self.process is not None
        try:
            return self.process.wait(seconds)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{self.name} still runs:\n{self.log_tail()}") from None

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]


class Proxy:
    """deploy/nginx.conf on Debian's nginx, its upstream being the given instances."""

    def __init__(self, work: Path, instances: list[Instance]) -> None:
        self.work = work
        self.instances = instances
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def _write_config(self) -> None:
        config = (ROOT / "deploy" / "nginx.conf").read_text()
        servers = re.findall(r"^\s*server 127\.0\.0\.1:\d+ (.*);$", config, flags=re.MULTILINE)
        assert servers, "deploy/nginx.conf names no upstream server"
        options = servers[0]
        lines = "\n".join(f"    server 127.0.0.1:{i.port} {options};" for i in self.instances)
        config = re.sub(
            r"(^\s*server 127\.0\.0\.1:\d+ .*;\n)+", lines + "\n", config, flags=re.MULTILINE
        )
        config = config.replace("listen 8080;", f"listen 127.0.0.1:{self.port};")
        (self.work / "patchbay.conf").write_text(config)
        temp = self.work / "nginx-temp"
        temp.mkdir(exist_ok=True)
        (self.work / "nginx.conf").write_text(
            f"daemon off;\npid {self.work}/nginx.pid;\nerror_log {self.work}/nginx-error.log;\n"
            + ("user root;\n" if os.geteuid() == 0 else "")
            + "events {}\nhttp {\n"
            f"  access_log {self.work}/nginx-access.log;\n"
            f"  client_body_temp_path {temp}/body;\n  proxy_temp_path {temp}/proxy;\n"
            f"  fastcgi_temp_path {temp}/fastcgi;\n  uwsgi_temp_path {temp}/uwsgi;\n"
            f"  scgi_temp_path {temp}/scgi;\n"
            f"  include {self.work}/patchbay.conf;\n}}\n"
        )

    def start(self) -> None:
        self._write_config()
        with (self.work / "nginx.out").open("ab") as output:
            self.process = subprocess.Popen(
                [NGINX, "-p", str(self.work), "-c", str(self.work / "nginx.conf")],
                stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + 20
        while True:
            try:
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            assert self.process.poll() is None, (self.work / "nginx.out").read_text()
            assert time.monotonic() < deadline, "nginx did not answer"
            time.sleep(0.2)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


def instance_env(work: Path, database_url: str, redis_url: str, public_url: str) -> dict[str, str]:
    """The settings the instances share; the drain is shortened, not the grace period."""
    return {
        **os.environ,
        "ENVIRONMENT": "test",  # argon2id's smallest work factors: logins cost no core
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "DATA_DIR": str(work / "data"),
        "MAIL_DIR": str(work / "mail"),
        "SMTP_URL": "",
        "SEED_DEMO": "false",
        "PORTAL_PUBLIC_URL": public_url,
        "LOG_FORMAT": "json",
        "SHUTDOWN_DRAIN_SECONDS": "3",
        "SHUTDOWN_GRACE_SECONDS": "30",
    }


def seed_demo(env: Mapping[str, str], tree: Path = ROOT) -> None:
    subprocess.run(
        [sys.executable, "-m", "portal.provider", "seed-demo"],
        cwd=tree, env=dict(env), check=True, capture_output=True,
    )  # fmt: skip
