"""Rate limits on login and reset (DESIGN 4, docs/decisions/rate-limits.md): per account and per
address, counted in the database, 429 with a translated message and Retry-After."""

import asyncio
from datetime import timedelta
from itertools import count

import httpx
import pytest
from sqlmodel import Session, select

from portal.provider.platform.models import AuditLog, RateLimitCounter, utcnow
from portal.settings import get_settings
from tests.provider.conftest import PASSWORD, World
from tests.provider.metric_values import sample
from tests.provider.settings_override import overridden

_addresses = count(1)


def new_address() -> str:
    """A fresh client address (the test client is a trusted proxy, so X-Forwarded-For counts)."""
    return f"203.0.113.{next(_addresses)}"


async def _login(
    client: httpx.AsyncClient, email: str, password: str, address: str, language: str = "en"
) -> httpx.Response:
    response = await client.post(
        "/login",
        json={"username": email, "password": password},
        headers={"X-Forwarded-For": address, "Accept-Language": language},
    )
    client.cookies.clear()
    return response


async def _reset(client: httpx.AsyncClient, email: str, address: str) -> httpx.Response:
    return await client.post("/reset", json={"email": email}, headers={"X-Forwarded-For": address})


def _assert_limited(response: httpx.Response, window_minutes: int) -> None:
    assert response.status_code == 429, response.text
    retry_after = int(response.headers["Retry-After"])
    assert 0 < retry_after <= window_minutes * 60
    assert response.json()["status"] == 429


# --- login --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "Too many attempts. Please try again in 15 min."),
        ("fr", "Trop de tentatives. Veuillez réessayer dans 15 min."),
    ],
)
async def test_five_failures_lock_the_account_even_for_the_right_password(
    client: httpx.AsyncClient, world: World, language: str, message: str
) -> None:
    email = f"locked-{language}@example.test"
    world.add_user(f"locked-{language}", "acme", email=email)
    for _ in range(get_settings().login_limit_per_account):
        assert (await _login(client, email, "wrong", new_address())).status_code == 401
    refusals = sample("patchbay_rate_limit_refusals_total", route="/login")
    response = await _login(client, email, PASSWORD, new_address(), language)
    _assert_limited(response, 15)
    assert response.json()["detail"] == message
    # Issue 17: each refusal is counted for the operators.
    assert sample("patchbay_rate_limit_refusals_total", route="/login") == refusals + 1
    # Other accounts are not affected.
    assert (await _login(client, "bob@example.test", PASSWORD, new_address())).status_code == 204


async def test_twenty_failures_from_one_address_block_that_address(
    client: httpx.AsyncClient, world: World
) -> None:
    address = new_address()
    for attempt in range(get_settings().login_limit_per_address):
        response = await _login(client, f"guess{attempt}@example.test", "wrong", address)
        assert response.status_code == 401
    _assert_limited(await _login(client, "bob@example.test", PASSWORD, address), 15)
    assert (await _login(client, "bob@example.test", PASSWORD, new_address())).status_code == 204


async def test_a_successful_login_clears_the_accounts_failures(
    client: httpx.AsyncClient, world: World
) -> None:
    limit = get_settings().login_limit_per_account
    for _ in range(limit - 1):
        await _login(client, "helene@example.test", "wrong", new_address())
    assert (await _login(client, "helene@example.test", PASSWORD, new_address())).status_code == 204
    for _ in range(limit - 1):
        await _login(client, "helene@example.test", "wrong", new_address())
    assert (await _login(client, "helene@example.test", PASSWORD, new_address())).status_code == 204


async def test_the_limit_ends_with_its_window(client: httpx.AsyncClient, world: World) -> None:
    world.add_user("patient", "acme")
    for _ in range(get_settings().login_limit_per_account):
        await _login(client, "patient@example.test", "wrong", new_address())
    _assert_limited(await _login(client, "patient@example.test", PASSWORD, new_address()), 15)
    with Session(world.engine) as session:
        for counter in session.exec(select(RateLimitCounter)):
            counter.window_start = utcnow() - timedelta(minutes=16)
            session.add(counter)
        session.commit()
    assert (
        await _login(client, "patient@example.test", PASSWORD, new_address())
    ).status_code == 204


async def test_parallel_wrong_passwords_get_exactly_the_accounts_tries(
    client: httpx.AsyncClient, world: World
) -> None:
    """Issue 47, item 14: 40 wrong passwords sent at once got 19 tries instead of 5, each
    request checking the limit before any had counted. Each attempt now counts first."""
    world.add_user("raced", "acme")
    attempts = [
        client.post(
            "/login",
            json={"username": "raced@example.test", "password": "wrong"},
            headers={"X-Forwarded-For": new_address()},
        )
        for _ in range(40)
    ]
    statuses = [response.status_code for response in await asyncio.gather(*attempts)]
    limit = get_settings().login_limit_per_account
    assert (statuses.count(401), statuses.count(429)) == (limit, 40 - limit)


async def test_parallel_attempts_from_one_address_get_exactly_its_tries(
    client: httpx.AsyncClient, world: World
) -> None:
    address = new_address()
    attempts = [
        client.post(
            "/login",
            json={"username": f"parallel{attempt}@example.test", "password": "wrong"},
            headers={"X-Forwarded-For": address},
        )
        for attempt in range(40)
    ]
    statuses = [response.status_code for response in await asyncio.gather(*attempts)]
    limit = get_settings().login_limit_per_address
    assert (statuses.count(401), statuses.count(429)) == (limit, 40 - limit)


async def test_limits_are_settings(client: httpx.AsyncClient, world: World) -> None:
    world.add_user("strict", "acme")
    with overridden(login_limit_per_account=2, login_limit_window_minutes=1):
        for _ in range(2):
            await _login(client, "strict@example.test", "wrong", new_address())
        _assert_limited(await _login(client, "strict@example.test", PASSWORD, new_address()), 1)


async def test_counters_keep_no_email_or_address_and_refusals_are_audited(
    client: httpx.AsyncClient, world: World
) -> None:
    address = new_address()
    with overridden(login_limit_per_address=1):
        await _login(client, "secret-person@example.test", "wrong", address)
        await _login(client, "secret-person@example.test", "wrong", address)
    with Session(world.engine) as session:
        ids = [counter.id for counter in session.exec(select(RateLimitCounter))]
        throttled = session.exec(select(AuditLog).where(AuditLog.action == "login_throttled")).all()
    assert ids
    assert all(len(key) == 64 and "@" not in key and "203." not in key for key in ids)
    assert any(
        entry.detail.get("username") == "secret-person@example.test"
        and entry.client_address == address
        for entry in throttled
    )


# --- reset --------------------------------------------------------------------------------------


@pytest.mark.parametrize("email", ["alice@acme-networks.test", "nobody@acme-networks.test"])
async def test_three_resets_per_account_and_hour_known_or_not(
    client: httpx.AsyncClient, world: World, email: str
) -> None:
    for _ in range(get_settings().reset_limit_per_account):
        assert (await _reset(client, email, new_address())).status_code == 204
    _assert_limited(await _reset(client, email, new_address()), 60)


async def test_parallel_reset_requests_get_exactly_the_accounts_mails(
    client: httpx.AsyncClient, world: World
) -> None:
    requests = [_reset(client, "claire@example.test", new_address()) for _ in range(20)]
    statuses = [response.status_code for response in await asyncio.gather(*requests)]
    limit = get_settings().reset_limit_per_account
    assert (statuses.count(204), statuses.count(429)) == (limit, 20 - limit)


async def test_ten_resets_per_address_and_hour(client: httpx.AsyncClient, world: World) -> None:
    address = new_address()
    for attempt in range(get_settings().reset_limit_per_address):
        response = await _reset(client, f"someone{attempt}@example.test", address)
        assert response.status_code == 204
    _assert_limited(await _reset(client, "bob@example.test", address), 60)
    assert (await _reset(client, "bob@example.test", new_address())).status_code == 204
