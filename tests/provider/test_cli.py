"""``python -m portal.provider``: create-admin, print-logins and their refusals, run as an
operator runs them, on a database of their own."""

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest
from sqlmodel import Session, select

from portal.permissions import Role
from portal.provider.accounts.passwords import verify_password
from portal.provider.cli import main
from portal.provider.demo_data.people import DEMO_PASSWORD
from portal.provider.platform.db import create_db_engine
from portal.provider.platform.models import Company, User
from portal.provider.seed import demo_logins
from portal.settings import ROOT, get_settings

STRONG = "Strong-pass-2026"


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'cli.db'}"


def run(database_url: str, *args: str, **environment: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "ENVIRONMENT": "development",
        "SEED_DEMO": "true",
        **environment,
    }
    return subprocess.run(
        [sys.executable, "-m", "portal.provider", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def create_admin(
    database_url: str, email: str, password: str = STRONG
) -> subprocess.CompletedProcess[str]:
    return run(
        database_url,
        "create-admin",
        "--email",
        email,
        "--firstname",
        "Ada",
        "--lastname",
        "Lovelace",
        "--password",
        password,
    )


class StoredUser(NamedTuple):
    email: str
    roles: list[str]
    company: str
    has_accepted_terms: bool
    password_hash: str | None


def users(database_url: str) -> list[StoredUser]:
    engine = create_db_engine(database_url)
    with Session(engine) as session:
        found = [
            StoredUser(
                user.email,
                user.roles,
                user.company.name,
                user.has_accepted_terms,
                user.password_hash,
            )
            for user in session.exec(select(User)).all()
        ]
    engine.dispose()
    return found


def test_create_admin_creates_a_staff_administrator_who_must_accept_the_terms(
    database_url: str,
) -> None:
    result = create_admin(database_url, "Root@Patchbay.test")
    assert result.returncode == 0, result.stderr
    assert "root@patchbay.test" in result.stdout
    [admin] = users(database_url)
    assert admin.email == "root@patchbay.test"
    assert admin.roles == [Role.ADMIN]
    assert admin.company == "Patchbay"
    assert admin.has_accepted_terms is False
    assert verify_password(admin.password_hash, STRONG)


def test_create_admin_reuses_the_existing_staff_company(database_url: str) -> None:
    assert create_admin(database_url, "first@patchbay.test").returncode == 0
    assert create_admin(database_url, "second@patchbay.test").returncode == 0
    engine = create_db_engine(database_url)
    with Session(engine) as session:
        assert len(session.exec(select(Company)).all()) == 1
    engine.dispose()


@pytest.mark.parametrize(
    ("password", "lacking"),
    [
        ("Short-1", "at least 10 characters"),
        ("no-digits-HERE", "a digit"),
        ("lowercase-only-42", "an uppercase letter"),
    ],
)
def test_create_admin_refuses_a_weak_password(
    database_url: str, password: str, lacking: str
) -> None:
    result = create_admin(database_url, "root@patchbay.test", password)
    assert result.returncode == 1
    assert "too weak" in result.stdout
    assert lacking in result.stdout
    assert users(database_url) == []


def test_create_admin_refuses_an_existing_email(database_url: str) -> None:
    assert create_admin(database_url, "root@patchbay.test").returncode == 0
    result = create_admin(database_url, "ROOT@patchbay.test")
    assert result.returncode == 1
    assert "already exists" in result.stdout
    assert len(users(database_url)) == 1


def test_create_admin_refuses_an_email_outside_the_staff_domain(database_url: str) -> None:
    result = create_admin(database_url, "root@example.com")
    assert result.returncode == 1
    assert "@patchbay.test" in result.stdout


def test_create_admin_without_arguments_is_a_usage_error(database_url: str) -> None:
    result = run(database_url, "create-admin", "--email", "root@patchbay.test")
    assert result.returncode == 2
    assert "--firstname" in result.stderr


@pytest.fixture
def settings_from(monkeypatch: pytest.MonkeyPatch, database_url: str) -> Iterator[None]:
    """Settings read afresh from an environment pointing at the test's database."""
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("ENVIRONMENT", "development")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.mark.usefixtures("settings_from")
def test_create_admin_asks_for_the_password_twice_when_not_given(
    monkeypatch: pytest.MonkeyPatch, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = ["create-admin", "--email", "root@patchbay.test"]
    arguments += ["--firstname", "Ada", "--lastname", "Lovelace"]
    typed = iter([STRONG, "Something-else-1"])
    monkeypatch.setattr("getpass.getpass", lambda _prompt: next(typed))
    assert main(arguments) == 1
    assert "differ" in capsys.readouterr().out

    monkeypatch.setattr("getpass.getpass", lambda _prompt: STRONG)
    assert main(arguments) == 0
    [admin] = users(database_url)
    assert verify_password(admin.password_hash, STRONG)


def test_print_logins_prints_the_portal_url_and_every_demo_account(database_url: str) -> None:
    result = run(database_url, "print-logins", PORTAL_PUBLIC_URL="https://portal.example.test")
    assert result.returncode == 0, result.stderr
    assert "https://portal.example.test" in result.stdout
    for email, password, description in demo_logins():
        line = next(line for line in result.stdout.splitlines() if email in line)
        assert password in line
        assert description in line
    assert DEMO_PASSWORD in result.stdout


def test_print_logins_shows_no_demo_account_in_production(database_url: str) -> None:
    result = run(database_url, "print-logins", ENVIRONMENT="production", SECRET_KEY="s3cret")
    assert result.returncode == 0, result.stderr
    assert "http://" in result.stdout or "https://" in result.stdout
    assert DEMO_PASSWORD not in result.stdout


def test_seed_demo_is_refused_in_production(database_url: str) -> None:
    result = run(database_url, "seed-demo", ENVIRONMENT="production", SECRET_KEY="s3cret")
    assert result.returncode == 1
    assert "production" in result.stdout
