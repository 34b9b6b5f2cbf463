"""Issue 56, items 2 and 5: the image built from the Dockerfile runs as production runs it, and
the orchestration examples are valid.

``IMAGE`` names an image that scripts/image.sh built with podman on a base of Debian's packages
(CI's image step does). The container runs against the host's PostgreSQL (a scratch database,
the demo loaded from the host) and a Redis of the test's own, on the host's network, as a
non-root user, its root filesystem read-only, with a tmpfs on /tmp and a directory for
/app/data: the image's HEALTHCHECK reports it healthy, alice logs in over HTTP, the built pages
are served, nothing else can be written, and ``podman stop`` ends it with exit code 0 (it drains).
deploy/compose.yaml passes ``podman-compose config`` and deploy/kubernetes/ the schemas of
Kubernetes (``kubernetes-validate --strict``)."""

import os
import secrets
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml

from tests.deployment.cluster import DEMO_PASSWORD, ROOT, postgres_url, scratch_database, seed_demo
from tests.ports import free_port
from tests.redis_server import RedisServer

IMAGE = os.environ.get("IMAGE", "")
BIN = Path(sys.executable).parent
# What scripts/image.sh says of this machine: runc, and limits a process may set.
PODMAN = ["podman", "--runtime", "runc"]
LIMITS = ["--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096"]
HEALTHY_SECONDS = 120


def _podman(*arguments: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PODMAN, *arguments], capture_output=True, text=True, check=check)


@pytest.fixture
def container(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """The image running; yields its name and URL."""
    if not (IMAGE and shutil.which("podman") and postgres_url().startswith("postgres")):
        pytest.skip("needs IMAGE (scripts/image.sh), podman and DATABASE_URL on PostgreSQL")
    redis_server = RedisServer(tmp_path)
    data = tmp_path / "data"
    data.mkdir()
    os.chown(data, 10001, 10001)
    name = f"patchbay-test-{os.getpid()}"
    port = free_port()
    with scratch_database("image") as database_url:
        redis_server.start()
        seed_demo({**os.environ, "DATABASE_URL": database_url, "DATA_DIR": str(data)})
        try:
            _podman(
                "run", "--detach", "--name", name, *LIMITS, "--network", "host",
                "--read-only", "--tmpfs", "/tmp", "--volume", f"{data}:/app/data",
                "--env", f"PORT={port}", "--env", f"DATABASE_URL={database_url}",
                "--env", f"REDIS_URL={redis_server.url}",
                "--env", f"SECRET_KEY={secrets.token_urlsafe(32)}",
                "--env", f"SECOND_FACTOR_KEY={secrets.token_urlsafe(32)}",
                "--env", f"PORTAL_PUBLIC_URL=http://127.0.0.1:{port}",
                "--env", "SHUTDOWN_DRAIN_SECONDS=1", IMAGE,
            )  # fmt: skip
            yield name, f"http://127.0.0.1:{port}"
        finally:
            logs = _podman("logs", name, check=False)
            (tmp_path / "container.log").write_text(logs.stdout + logs.stderr)
            _podman("rm", "--force", "--time", "5", name, check=False)
            redis_server.stop()


def _wait_healthy(name: str) -> None:
    """podman runs a HEALTHCHECK from systemd timers, which this machine has not: run it."""
    deadline = time.monotonic() + HEALTHY_SECONDS
    while _podman("healthcheck", "run", name, check=False).returncode != 0:
        state = _podman("inspect", "--format", "{{.State.Status}}", name).stdout.strip()
        assert state == "running", _podman("logs", name, check=False).stderr[-3000:]
        assert time.monotonic() < deadline, "the HEALTHCHECK never passed"
        time.sleep(2)
    health = _podman("inspect", "--format", "{{.State.Health.Status}}", name).stdout.strip()
    assert health == "healthy"


def _writes(name: str, path: str) -> bool:
    return _podman("exec", name, "touch", path, check=False).returncode == 0


def test_the_image_runs_healthy_as_non_root_read_only_and_serves_a_sign_in(
    container: tuple[str, str],
) -> None:
    name, url = container
    _wait_healthy(name)

    with httpx.Client(base_url=url, headers={"Origin": url}, timeout=30) as client:
        login = client.post(
            "/provider/login",
            json={"username": "alice@acme-networks.test", "password": DEMO_PASSWORD},
        )
        assert login.status_code == 204, login.text
        services = client.get("/provider/api/services", params={"itemsPerPage": 3})
        assert services.status_code == 200
        assert len(services.json()["hydra:member"]) == 3
        page = client.get("/login/", follow_redirects=True)
        assert page.status_code == 200
        assert "text/html" in page.headers["content-type"]
        assert client.get("/readyz").json()["status"] == "ready"

    assert _podman("exec", name, "id", "-u").stdout.strip() == "10001"
    assert not _writes(name, "/app/portal/written")
    assert not _writes(name, "/written")
    assert _writes(name, "/tmp/written")
    assert _writes(name, "/app/data/written")
    # Lean: no compiler, no test dependency.
    tools = _podman("exec", name, "sh", "-c", "command -v gcc cc g++ make", check=False)
    assert tools.stdout.strip() == ""
    assert _podman("exec", name, "python", "-c", "import pytest", check=False).returncode != 0

    _podman("stop", "--time", "60", name)
    assert _podman("inspect", "--format", "{{.State.ExitCode}}", name).stdout.strip() == "0"


def test_the_compose_file_is_valid() -> None:
    env = {
        **os.environ,
        "SECRET_KEY": "s",
        "SECOND_FACTOR_KEY": "k",
        "POSTGRES_PASSWORD": "p",
        "RELAY_HOST": "[smtp.example.com]:587",
    }
    config = subprocess.run(
        [BIN / "podman-compose", "-f", ROOT / "deploy" / "compose.yaml", "config"],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert config.returncode == 0, config.stderr
    services = yaml.safe_load(config.stdout)["services"]
    for name in ("portal-a", "portal-b"):
        assert services[name]["read_only"] is True
        assert services[name]["environment"]["INSTANCE_NAME"] == name


def test_the_kubernetes_example_passes_the_schemas_of_kubernetes() -> None:
    manifests = sorted((ROOT / "deploy" / "kubernetes").glob("*.yaml"))
    validated = subprocess.run(
        [BIN / "kubernetes-validate", "--strict", "--quiet", *manifests],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert manifests
    assert validated.returncode == 0, validated.stdout + validated.stderr
