"""Issue 56, item 3: a rolling upgrade under load fails no request and loses no submission.

Two instances of the current code, at its newest migration, serve behind deploy/nginx.conf under
the load of tests/deployment/load.py. The next release is a copy of the tree with one more,
additive migration (a nullable column, written here). One instance at a time is stopped with
SIGTERM (it drains, docs/decisions/graceful-drain.md) and started again from the new release on
the same port: the first new one migrates the database while the old one beside it serves on,
on a schema it has never seen; each new one takes traffic through the proxy before the next old
one stops, as an operator waits for it (the README's Upgrade paragraph)."""

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from alembic.script import ScriptDirectory

from bench.run.servers import copy_tree
from tests.deployment.cluster import (
    ROOT,
    Instance,
    Proxy,
    can_run,
    instance_env,
    scratch_database,
    seed_demo,
)
from tests.deployment.load import Load, Outcome, audited_changes, services
from tests.ports import free_port
from tests.redis_server import RedisServer

pytestmark = pytest.mark.skipif(
    not can_run(), reason="needs DATABASE_URL on PostgreSQL and Debian's nginx (ensure-nginx.sh)"
)

MIGRATIONS = Path("portal/provider/migrations")
NEW_REVISION = "9001_upgrade"
EXIT_SECONDS = 3 + 30 + 15
# Answers from a new instance through the proxy before the next old one stops.
TAKING_TRAFFIC = 20

MIGRATION = '''"""A release's additive migration, written by test_rolling_upgrade.py.

Revision ID: {revision}
Revises: {down}
"""

import sqlalchemy as sa
from alembic import op

revision = "{revision}"
down_revision = "{down}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("services", sa.Column("upgrade_note", sa.String(200), nullable=True))


def downgrade() -> None:
    op.drop_column("services", "upgrade_note")
'''


def _next_release(destination: Path) -> Path:
    """The tree copied, with one more migration on top of its newest."""
    tree = copy_tree(destination)
    head = ScriptDirectory(str(ROOT / MIGRATIONS)).get_current_head()
    assert head is not None
    (tree / MIGRATIONS / "versions" / f"{NEW_REVISION}.py").write_text(
        MIGRATION.format(revision=NEW_REVISION, down=head)
    )
    return tree


def _schema(database_url: str) -> tuple[str, bool]:
    with psycopg.connect(database_url) as db:
        version = db.execute("SELECT version_num FROM alembic_version").fetchone()
        column = db.execute(
            "SELECT 1 FROM information_schema.columns"
            " WHERE table_name = 'services' AND column_name = 'upgrade_note'"
        ).fetchone()
    assert version is not None
    return version[0], column is not None


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[tuple[Proxy, dict[str, Instance], str, Path]]:
    redis_server = RedisServer(tmp_path)
    with scratch_database("upgrade") as database_url:
        redis_server.start()
        instances = {
            name: Instance(name, free_port(), {}, tmp_path / f"{name}.log")
            for name in ("portal-a", "portal-b")
        }
        proxy = Proxy(tmp_path, list(instances.values()))
        env = instance_env(tmp_path, database_url, redis_server.url, proxy.url)
        release = _next_release(tmp_path / "next-release")
        started: list[Instance] = list(instances.values())
        try:
            seed_demo(env)
            for instance in instances.values():
                instance.env = env
                instance.start()
            for instance in instances.values():
                instance.wait_ready()
            proxy.start()
            yield proxy, instances, database_url, release
        finally:
            proxy.stop()
            for instance in started + list(instances.values()):
                instance.kill()
            redis_server.stop()


def _upgrade(old: Instance, release: Path, load: Load) -> tuple[int, Instance]:
    """Stops ``old`` (SIGTERM), starts the release in its place and waits until the proxy sends
    it traffic. Returns the old one's exit code and the new instance."""
    old.terminate()
    exit_code = old.wait_exit(EXIT_SECONDS)
    new = Instance(f"{old.name}-new", old.port, old.env, old.log.with_suffix(".new.log"), release)
    started = time.monotonic()
    new.start()
    new.wait_ready()

    def taking_traffic(seen: Outcome) -> bool:
        return seen.served_by(started)[new.name] >= TAKING_TRAFFIC

    load.wait_until(taking_traffic, 60, f"{new.name} serving through the proxy")
    return exit_code, new


def test_a_rolling_upgrade_under_load_fails_no_request_and_loses_no_submission(
    deployment: tuple[Proxy, dict[str, Instance], str, Path],
) -> None:
    proxy, instances, database_url, release = deployment
    before = _schema(database_url)
    chosen = asyncio.run(services(proxy.url, 10))
    with Load(proxy.url, chosen[:4], chosen[4:]) as load:
        load.wait_until(lambda seen: sum(seen.stored.values()) > 40, 60, "stored changes")
        first_exit, instances["portal-a"] = _upgrade(instances["portal-a"], release, load)
        migrated = _schema(database_url)
        # The old instance serves on beside the new one, on the new schema.
        served = time.monotonic()
        load.wait_until(
            lambda seen: seen.served_by(served)["portal-b"] >= TAKING_TRAFFIC,
            60,
            "the old instance serving on the new schema",
        )
        second_exit, instances["portal-b"] = _upgrade(instances["portal-b"], release, load)
        upgraded = time.monotonic()
        load.wait_until(
            lambda seen: seen.served_by(upgraded)["portal-a-new"] >= TAKING_TRAFFIC,
            60,
            "both new instances serving",
        )
        outcome = load.stop()

    assert before[1] is False
    assert migrated == (NEW_REVISION, True)
    assert (first_exit, second_exit) == (0, 0)
    assert set(outcome.served_by(upgraded)) == {"portal-a-new", "portal-b-new"}
    assert outcome.failures == [], f"{len(outcome.failures)} failed: {outcome.failures[:10]}"
    assert outcome.lost == []
    assert audited_changes(database_url) == outcome.stored
