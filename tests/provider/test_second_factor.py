"""TOTP second factor (issue 18, item 10): enrolment with a QR code, the second step of a login
with a code or a single-use recovery code, replay refused, rate limits, remembered devices, and
an administrator's audited reset."""

import asyncio
import time
from collections.abc import AsyncIterator, Callable

import httpx
import pyotp
import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from sqlmodel import Session, col, select

from portal.permissions import Role
from portal.provider.accounts.second_factor import DEVICE_COOKIE, PENDING_COOKIE
from portal.provider.platform.models import AuditLog, RecoveryCode, SecondFactor
from portal.provider.platform.sessions import COOKIE_NAME, token_hash
from portal.settings import Settings
from tests.provider.accounts import add_staff
from tests.provider.conftest import BASE_URL, PASSWORD, SignIn, World
from tests.provider.settings_override import overridden


@pytest.fixture(autouse=True)
def staff(world: World) -> None:
    add_staff(world)


def _user(world: World, key: str) -> str:
    if key not in world.users:
        world.add_user(key, "acme", roles=(Role.MANAGE_USERS,), email=f"{key}@acme-networks.test")
    return world.email(key)


async def _enrol(
    client: httpx.AsyncClient, sign_in: SignIn, key: str
) -> tuple[pyotp.TOTP, list[str]]:
    await sign_in(key)
    started = await client.post("/api/second_factor")
    assert started.status_code == 200, started.text
    secret = started.json()["secret"]
    totp = pyotp.TOTP(secret)
    confirmed = await client.post("/api/second_factor/confirm", json={"code": totp.now()})
    assert confirmed.status_code == 200, confirmed.text
    await client.post("/logout")
    return totp, confirmed.json()["recoveryCodes"]


async def _password(client: httpx.AsyncClient, email: str) -> httpx.Response:
    return await client.post("/login", json={"username": email, "password": PASSWORD})


def _next_code(totp: pyotp.TOTP) -> str:
    """The code of the next 30-second step (accepted: the clock may drift by one step)."""
    return totp.at(time.time() + 30)


async def test_enrolment_shows_a_qr_code_and_needs_a_right_code(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    _user(world, "mfa-enrol")
    await sign_in("mfa-enrol")
    assert (await client.get("/api/second_factor")).json()["enrolled"] is False
    started = (await client.post("/api/second_factor")).json()
    assert started["otpauthUri"].startswith("otpauth://totp/Patchbay:")
    assert "issuer=Patchbay" in started["otpauthUri"]
    assert started["qrSvg"].startswith("<svg")
    wrong = await client.post("/api/second_factor/confirm", json={"code": "000000"})
    assert wrong.status_code == 422
    totp = pyotp.TOTP(started["secret"])
    confirmed = await client.post("/api/second_factor/confirm", json={"code": totp.now()})
    codes = confirmed.json()["recoveryCodes"]
    assert len(codes) == len(set(codes)) == 10
    assert (await client.get("/api/second_factor")).json() == {
        "enrolled": True,
        "passkeys": 0,
        "recoveryCodesLeft": 10,
        "required": False,
    }
    assert (await client.post("/api/second_factor")).status_code == 409
    with Session(world.engine) as db:
        stored = {r.code_hash for r in db.exec(select(RecoveryCode)).all()}
    assert {token_hash(c) for c in codes} <= stored
    assert not any(c in stored for c in codes)  # digests only
    audit = _audit(world, "second_factor_enrolled")[-1]
    assert audit.actor_id == world.users["mfa-enrol"]


async def test_the_secret_is_stored_sealed(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    """Issue 47, item 18: the database held the TOTP secrets in clear."""
    _user(world, "mfa-sealed")
    await sign_in("mfa-sealed")
    secret = (await client.post("/api/second_factor")).json()["secret"]
    with Session(world.engine) as db:
        stored = db.exec(
            select(SecondFactor.sealed_secret).where(
                SecondFactor.user_id == world.users["mfa-sealed"]
            )
        ).one()
    assert secret not in stored
    assert secret.lower() not in stored.lower()
    assert stored.startswith("v1.")


async def test_the_password_alone_opens_no_session(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    email = _user(world, "mfa-login")
    totp, _ = await _enrol(client, sign_in, "mfa-login")
    due = await _password(client, email)
    assert due.status_code == 202
    assert due.json() == {"secondFactorRequired": True, "methods": ["totp", "recovery_code"]}
    assert COOKIE_NAME not in due.cookies
    assert PENDING_COOKIE in due.cookies
    assert (await client.get("/api/users")).status_code == 401
    wrong = await client.post("/login/second_factor", json={"code": "123456"})
    assert wrong.status_code == 401
    code = _next_code(totp)
    right = await client.post("/login/second_factor", json={"code": code})
    assert right.status_code == 204, right.text
    assert right.headers["Location"].endswith(str(world.users["mfa-login"]))
    assert (await client.get("/api/users")).status_code == 200
    # The same code never serves twice.
    await client.post("/logout")
    assert (await _password(client, email)).status_code == 202
    replay = await client.post("/login/second_factor", json={"code": code})
    assert replay.status_code == 401


async def test_a_recovery_code_serves_once(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    email = _user(world, "mfa-recovery")
    _, codes = await _enrol(client, sign_in, "mfa-recovery")
    assert (await _password(client, email)).status_code == 202
    used = await client.post("/login/second_factor", json={"code": codes[0]})
    assert used.status_code == 204
    assert (await client.get("/api/second_factor")).json()["recoveryCodesLeft"] == 9
    await client.post("/logout")
    assert (await _password(client, email)).status_code == 202
    again = await client.post("/login/second_factor", json={"code": codes[0]})
    assert again.status_code == 401


@pytest.fixture
async def browsers(app: FastAPI) -> AsyncIterator[Callable[[int], list[httpx.AsyncClient]]]:
    """Clients with cookie jars and addresses of their own, as separate browsers have (their
    failures then fill no address's rate limit)."""
    opened: list[httpx.AsyncClient] = []

    def open_browsers(count: int) -> list[httpx.AsyncClient]:
        for _ in range(count):
            address = {"X-Forwarded-For": f"192.0.2.{len(opened) + 1}"}
            transport = httpx.ASGITransport(app)
            opened.append(
                httpx.AsyncClient(transport=transport, base_url=BASE_URL, headers=address)
            )
        return opened[-count:]

    yield open_browsers
    for browser in opened:
        await browser.aclose()


async def _second_steps_at_once(
    browsers: list[httpx.AsyncClient], email: str, code: str
) -> list[int]:
    """Each browser types the password, then all send ``code`` at the same moment."""
    for browser in browsers:
        assert (await _password(browser, email)).status_code == 202
    steps = [browser.post("/login/second_factor", json={"code": code}) for browser in browsers]
    return [response.status_code for response in await asyncio.gather(*steps)]


async def test_one_code_sent_in_parallel_opens_one_session(
    client: httpx.AsyncClient,
    world: World,
    sign_in: SignIn,
    browsers: Callable[[int], list[httpx.AsyncClient]],
) -> None:
    """Issue 47, item 14: one TOTP code sent by six browsers at once opened five sessions; its
    time step is now claimed by a conditional UPDATE, which only one request wins."""
    email = _user(world, "mfa-race")
    totp, _ = await _enrol(client, sign_in, "mfa-race")
    statuses = await _second_steps_at_once(browsers(6), email, _next_code(totp))
    assert statuses.count(204) == 1, statuses
    assert set(statuses) <= {204, 401, 429}


async def test_one_recovery_code_sent_in_parallel_opens_one_session(
    client: httpx.AsyncClient,
    world: World,
    sign_in: SignIn,
    browsers: Callable[[int], list[httpx.AsyncClient]],
) -> None:
    email = _user(world, "mfa-race-recovery")
    _, codes = await _enrol(client, sign_in, "mfa-race-recovery")
    statuses = await _second_steps_at_once(browsers(6), email, codes[0])
    assert statuses.count(204) == 1, statuses
    with Session(world.engine) as db:
        left = db.exec(
            select(RecoveryCode).where(
                RecoveryCode.user_id == world.users["mfa-race-recovery"],
                col(RecoveryCode.used_at).is_(None),
            )
        ).all()
    assert len(left) == 9


async def test_one_code_confirms_an_enrolment_once(
    world: World, sign_in: SignIn, client: httpx.AsyncClient
) -> None:
    """Two confirmations racing with one code: one gets the recovery codes, the other a
    refusal, and only one set of codes is stored."""
    _user(world, "mfa-race-confirm")
    await sign_in("mfa-race-confirm")
    totp = pyotp.TOTP((await client.post("/api/second_factor")).json()["secret"])
    code = totp.now()
    confirmations = [
        client.post("/api/second_factor/confirm", json={"code": code}) for _ in range(4)
    ]
    statuses = [response.status_code for response in await asyncio.gather(*confirmations)]
    assert statuses.count(200) == 1, statuses
    with Session(world.engine) as db:
        stored = db.exec(
            select(RecoveryCode).where(RecoveryCode.user_id == world.users["mfa-race-confirm"])
        ).all()
    assert len(stored) == 10


async def test_without_a_pending_login_the_second_step_answers_401(
    client: httpx.AsyncClient,
) -> None:
    response = await client.post("/login/second_factor", json={"code": "123456"})
    assert response.status_code == 401


async def test_codes_are_rate_limited_like_the_password(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    email = _user(world, "mfa-limit")
    totp, _ = await _enrol(client, sign_in, "mfa-limit")
    assert (await _password(client, email)).status_code == 202
    statuses = [
        (await client.post("/login/second_factor", json={"code": "000000"})).status_code
        for _ in range(6)
    ]
    assert statuses == [401] * 5 + [429]
    # Over the limit, even the right code waits.
    right = await client.post("/login/second_factor", json={"code": _next_code(totp)})
    assert right.status_code == 429


async def test_a_right_password_neither_counts_nor_clears_the_failures(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    """The password is counted first like every attempt; when the code is still due it takes
    its own attempt back, but not the failures before it: typing the password again buys no
    more guesses."""
    email = _user(world, "mfa-no-clear")
    await _enrol(client, sign_in, "mfa-no-clear")
    client.headers["X-Forwarded-For"] = "192.0.2.99"  # failures of its own address
    wrong_code = {"code": "000000"}
    assert (await _password(client, email)).status_code == 202
    for _ in range(4):
        assert (await client.post("/login/second_factor", json=wrong_code)).status_code == 401
    assert (await _password(client, email)).status_code == 202
    assert (await client.post("/login/second_factor", json=wrong_code)).status_code == 401
    assert (await _password(client, email)).status_code == 429


async def test_a_remembered_device_skips_the_second_step(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    email = _user(world, "mfa-device")
    totp, _ = await _enrol(client, sign_in, "mfa-device")
    assert (await _password(client, email)).status_code == 202
    remembered = await client.post(
        "/login/second_factor", json={"code": _next_code(totp), "remember": True}
    )
    assert remembered.status_code == 204
    assert DEVICE_COOKIE in remembered.cookies
    await client.post("/logout")
    assert (await _password(client, email)).status_code == 204
    # Another browser (no device cookie) still needs the code.
    client.cookies.clear()
    assert (await _password(client, email)).status_code == 202


async def test_an_administrator_resets_a_second_factor_audited(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    email = _user(world, "mfa-lost")
    await _enrol(client, sign_in, "mfa-lost")
    user_id = world.users["mfa-lost"]
    await sign_in("usermanager")
    assert (await client.delete(f"/api/users/{user_id}/second_factor")).status_code == 403
    await sign_in("admin")
    assert (await client.delete(f"/api/users/{user_id}/second_factor")).status_code == 204
    assert (await client.delete(f"/api/users/{user_id}/second_factor")).status_code == 404
    reset = _audit(world, "second_factor_reset")[-1]
    assert (reset.actor_id, reset.subject_id) == (world.users["admin"], user_id)
    await client.post("/logout")
    assert (await _password(client, email)).status_code == 204


def _audit(world: World, action: str) -> list[AuditLog]:
    with Session(world.engine) as db:
        return list(db.exec(select(AuditLog).where(AuditLog.action == action)))


async def test_when_required_staff_reach_only_the_set_up_until_they_have_one(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    if "mfa-sales" not in world.users:
        world.add_user(
            "mfa-sales", "staff", roles=(Role.SPH_SALES,), email="mfa-sales@patchbay.test"
        )
    with overridden(second_factor_required=True):
        await sign_in("bob")  # a customer: optional
        assert (await client.get("/api/users")).status_code == 200
        # Issue 47, item 19: read-only staff read every customer's data, so they need one too.
        await sign_in("support")
        assert (await client.get("/api/second_factor")).json()["required"] is True
        assert (await client.get("/api/users")).json()["code"] == "required_second_factor"
        await sign_in("mfa-sales")
        assert (await client.get("/api/second_factor")).json()["required"] is True
        refused = await client.get("/api/users")
        assert refused.status_code == 403
        assert refused.json()["code"] == "required_second_factor"
        started = await client.post("/api/second_factor")
        assert started.status_code == 200
        totp = pyotp.TOTP(started.json()["secret"])
        confirmed = await client.post("/api/second_factor/confirm", json={"code": totp.now()})
        assert confirmed.status_code == 200
        assert (await client.get("/api/users")).status_code == 200
    with overridden(second_factor_required=False):
        await client.post("/logout")
        await sign_in("admin")
        assert (await client.get("/api/users")).status_code == 200


async def test_until_the_required_set_up_staff_neither_impersonate_nor_read_others(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    """The routes open before the set-up (one's own record, the set-up itself) give nothing
    more: no impersonation, whose session would read as the customer, no other user."""
    if "mfa-sales-2" not in world.users:
        world.add_user(
            "mfa-sales-2", "staff", roles=(Role.SPH_SALES,), email="mfa-sales-2@patchbay.test"
        )
    with overridden(second_factor_required=True):
        await sign_in("mfa-sales-2")
        own = await client.get(f"/api/users/{world.users['mfa-sales-2']}")
        assert own.status_code == 200
        other = await client.get(f"/api/users/{world.users['alice']}")
        assert other.status_code == 403
        assert other.json()["code"] == "required_second_factor"
        refused = await client.post("/api/impersonation", json={"email": world.email("alice")})
        assert refused.status_code == 403
        assert refused.json()["code"] == "required_second_factor"
        # Still the sales user's own session: nothing of the customer's is readable.
        services = await client.get("/api/services")
        assert services.json()["code"] == "required_second_factor"


async def test_the_principal_with_its_second_factor_is_one_statement(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    """Whether a staff member's required factor is set up comes with the session, the user and
    their companies: one round trip before the route's own (issue 11)."""
    if "mfa-sales-3" not in world.users:
        world.add_user(
            "mfa-sales-3", "staff", roles=(Role.SPH_SALES,), email="mfa-sales-3@patchbay.test"
        )
    statements: list[str] = []

    def record(*args: object) -> None:
        statements.append(str(args[2]))

    with overridden(second_factor_required=True):
        await sign_in("mfa-sales-3")
        started = await client.post("/api/second_factor")
        totp = pyotp.TOTP(started.json()["secret"])
        confirmed = await client.post("/api/second_factor/confirm", json={"code": totp.now()})
        assert confirmed.status_code == 200
        sa.event.listen(world.engine, "before_cursor_execute", record)
        try:
            count = await client.get("/api/users", params={"itemsPerPage": 0})
        finally:
            sa.event.remove(world.engine, "before_cursor_execute", record)
    assert count.status_code == 200, count.text
    assert len(statements) == 2, statements
    assert "second_factors" in statements[0]


def test_staff_need_a_second_factor_in_production_unless_told_otherwise() -> None:
    assert Settings(environment="production").staff_second_factor_required
    assert not Settings(environment="development").staff_second_factor_required
    assert not Settings(
        environment="production", second_factor_required=False
    ).staff_second_factor_required
    assert Settings(
        environment="development", second_factor_required=True
    ).staff_second_factor_required
