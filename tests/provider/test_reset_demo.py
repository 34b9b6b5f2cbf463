"""``python -m portal.provider reset-demo``: every table emptied and the demo seeded again in one
transaction, as browser tests run it before each module; refused in production. On the provider
tests' database: SQLite, or PostgreSQL when ``DATABASE_URL`` names it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlmodel import Session, func, select

from portal.provider import seed
from portal.provider.platform.models import Company, User
from portal.settings import ROOT
from tests.provider.settings_override import overridden


def reset_demo(
    engine: sa.Engine, data_dir: Path, **environment: str
) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "DATABASE_URL": engine.url.render_as_string(hide_password=False),
        "DATA_DIR": str(data_dir),
        "ENVIRONMENT": "development",
        **environment,
    }
    return subprocess.run(
        [sys.executable, "-m", "portal.provider", "reset-demo"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def demo_users(engine: sa.Engine) -> dict[str, tuple[object, bool]]:
    with Session(engine) as session:
        return {
            user.email: (user.id, user.has_accepted_terms) for user in session.exec(select(User))
        }


def count_in(session: Session, model: type) -> int:
    return session.exec(select(func.count()).select_from(model)).one()


def count(engine: sa.Engine, model: type) -> int:
    with Session(engine) as session:
        return count_in(session, model)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("data")


@pytest.fixture(scope="module")
def seeded(engine: sa.Engine, data_dir: Path) -> dict[str, tuple[object, bool]]:
    """The demo as a fresh install seeds it: its users with their ids and terms."""
    with Session(engine) as session:
        assert seed.seed_if_empty(session, data_dir)
        session.commit()
    return demo_users(engine)


def test_reset_demo_undoes_every_change_and_keeps_the_demo_ids(
    engine: sa.Engine, data_dir: Path, seeded: dict[str, tuple[object, bool]]
) -> None:
    with Session(engine) as session:
        newbie = session.exec(select(User).where(User.email == "newbie@acme-networks.test")).one()
        newbie.has_accepted_terms = True
        session.add(Company(name="Left over by a test"))
        session.commit()
    assert demo_users(engine) != seeded

    result = reset_demo(engine, data_dir)

    assert result.returncode == 0, result.stderr
    assert "loaded the demo data again" in result.stdout
    assert demo_users(engine) == seeded
    with Session(engine) as session:
        assert not session.exec(select(Company).where(Company.name == "Left over by a test")).all()


@pytest.mark.usefixtures("seeded")
def test_a_failing_seed_leaves_the_database_as_it_was(
    engine: sa.Engine, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    companies = count(engine, Company)

    def broken_seed(session: Session, *_args: object) -> None:
        assert count_in(session, Company) == 0  # the tables were emptied in this transaction
        raise RuntimeError("the seed broke half-way")

    monkeypatch.setattr(seed, "seed_demo", broken_seed)
    with Session(engine) as session, pytest.raises(RuntimeError, match="half-way"):
        seed.reset_demo(session, data_dir)
    assert count(engine, Company) == companies


@pytest.mark.usefixtures("seeded")
def test_reset_demo_is_refused_in_production(engine: sa.Engine, data_dir: Path) -> None:
    with Session(engine) as session:
        session.add(Company(name="A real customer"))
        session.commit()
    companies = count(engine, Company)

    result = reset_demo(engine, data_dir, ENVIRONMENT="production")

    assert result.returncode == 1
    assert "Refused" in result.stdout
    assert "ENVIRONMENT=production" in result.stdout
    assert count(engine, Company) == companies
    with overridden(environment="production"), Session(engine) as session:
        assert seed.reset_demo(session, data_dir) is False
        session.rollback()
    assert count(engine, Company) == companies
