"""A company's second-factor policy and the recovery codes of customers (issue 52, items 2 and
3): only provider administrators set the policy; a user of such a company reaches nothing but
the set-up of a factor until they have one, refused by the API itself; impersonation is
unaffected; recovery codes serve once, say how many remain, and are regenerated on demand."""

import httpx
import pyotp
import pytest
from sqlmodel import Session, col, select

from portal.permissions import Role
from portal.provider.platform.models import AuditLog
from tests.provider.accounts import add_staff
from tests.provider.authenticator import Authenticator
from tests.provider.conftest import PASSWORD, SignIn, World

pytestmark = pytest.mark.usefixtures("fresh_rate_limits")


@pytest.fixture(autouse=True)
def policy_world(world: World) -> None:
    add_staff(world)
    if "strict" not in world.companies:
        world.add_company("strict", "Strict Networks")
        world.add_user("sam", "strict", roles=(Role.MANAGE_USERS,), email="sam@strict.test")
        world.add_user("sue", "strict", roles=(Role.ACCESS_MONITORING,), email="sue@strict.test")


def _policy_path(world: World, company: str = "strict") -> str:
    return f"/api/companies/{world.companies[company]}/second_factor_policy"


async def _require(client: httpx.AsyncClient, sign_in: SignIn, world: World, on: bool) -> None:
    await sign_in("admin")
    answer = await client.put(_policy_path(world), json={"secondFactorRequired": on})
    assert answer.status_code == 200, answer.text
    assert answer.json()["secondFactorRequired"] is on
    await client.post("/logout")


async def _enrol_totp(client: httpx.AsyncClient) -> tuple[pyotp.TOTP, list[str]]:
    totp = pyotp.TOTP((await client.post("/api/second_factor")).json()["secret"])
    confirmed = await client.post("/api/second_factor/confirm", json={"code": totp.now()})
    assert confirmed.status_code == 200, confirmed.text
    return totp, confirmed.json()["recoveryCodes"]


async def test_only_administrators_set_the_policy(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    assert (
        await client.put(_policy_path(world), json={"secondFactorRequired": True})
    ).status_code == 401
    for key in ("sam", "sales", "usermanager"):
        await sign_in(key)
        refused = await client.put(_policy_path(world), json={"secondFactorRequired": True})
        assert refused.status_code == 403, key
        await client.post("/logout")
    await sign_in("admin")
    bad = await client.put(_policy_path(world), json={"secondFactorRequired": "sometimes"})
    assert bad.status_code == 422
    assert bad.json()["violations"][0]["propertyPath"] == "secondFactorRequired"
    unknown = "/api/companies/00000000-0000-4000-8000-000000000000/second_factor_policy"
    assert (await client.put(unknown, json={"secondFactorRequired": True})).status_code == 404
    company = await client.get(f"/api/companies/{world.companies['strict']}")
    assert company.json()["secondFactorRequired"] is False
    await client.put(_policy_path(world), json={"secondFactorRequired": True})
    await client.put(_policy_path(world), json={"secondFactorRequired": False})
    with Session(world.engine) as db:
        entries = db.exec(
            select(AuditLog)
            .where(AuditLog.action == "company_second_factor_policy")
            .order_by(col(AuditLog.at))
        ).all()
    assert [e.detail["required"] for e in entries][-2:] == [True, False]
    assert entries[-1].actor_id == world.users["admin"]


async def test_the_api_refuses_everything_but_the_set_up_until_a_factor_is_set_up(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await _require(client, sign_in, world, True)
    try:
        await sign_in("sam")
        status = (await client.get("/api/second_factor")).json()
        assert status["required"] is True
        assert status["enrolled"] is False
        for path in ("/api/services", "/api/users", "/api/invoices", "/api/tickets"):
            refused = await client.get(path)
            assert refused.status_code == 403, path
            assert refused.json()["code"] == "required_second_factor"
        # Reading oneself still works, as with the terms.
        assert (await client.get(f"/api/users/{world.users['sam']}")).status_code == 200
        await _enrol_totp(client)
        assert (await client.get("/api/services")).status_code == 200
        await client.post("/logout")
        # Another company is untouched.
        await sign_in("claire")
        assert (await client.get("/api/services")).status_code == 200
        assert (await client.get("/api/second_factor")).json()["required"] is False
    finally:
        await client.post("/logout")
        await _require(client, sign_in, world, False)


async def test_a_passkey_also_lifts_the_requirement(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await _require(client, sign_in, world, True)
    try:
        await sign_in("sue")
        assert (await client.get("/api/services")).status_code == 403
        options = (await client.post("/api/passkey_registrations")).json()
        body = {
            "challengeToken": options["challengeToken"],
            "name": "Key",
            "credential": Authenticator().create(options["publicKey"]),
        }
        created = await client.post("/api/passkeys", json=body)
        assert created.status_code == 201
        assert (await client.get("/api/services")).status_code == 200
        # Her last factor cannot go while the company requires one.
        removed = await client.delete(f"/api/passkeys/{created.json()['id']}")
        assert removed.status_code == 409
    finally:
        await client.post("/logout")
        await _require(client, sign_in, world, False)


async def test_impersonation_is_unaffected(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    world.add_user("sid", "strict", roles=(Role.ACCESS_MONITORING,), email="sid@strict.test")
    await _require(client, sign_in, world, True)
    try:
        await sign_in("sales")
        started = await client.post("/api/impersonation", json={"email": "sid@strict.test"})
        assert started.status_code in (200, 204), started.text
        assert (await client.get("/api/services")).status_code == 200
    finally:
        await client.post("/logout")
        await _require(client, sign_in, world, False)


async def test_a_recovery_code_signs_in_once_and_the_count_goes_down(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    world.add_user("rita", "acme", roles=(Role.ACCESS_MONITORING,), email="rita@acme.test")
    await sign_in("rita")
    _, codes = await _enrol_totp(client)
    await client.post("/logout")
    for attempt in range(2):
        due = await client.post("/login", json={"username": "rita@acme.test", "password": PASSWORD})
        assert due.status_code == 202
        answer = await client.post("/login/second_factor", json={"code": codes[0]})
        assert answer.status_code == (204 if attempt == 0 else 401)
        if attempt == 0:
            assert (await client.get("/api/second_factor")).json()["recoveryCodesLeft"] == 9
            await client.post("/logout")
    with Session(world.engine) as db:
        login = db.exec(
            select(AuditLog)
            .where(AuditLog.action == "login", AuditLog.actor_id == world.users["rita"])
            .order_by(col(AuditLog.at))
        ).all()
    assert login[-1].detail["method"] == "recovery_code"


async def test_recovery_codes_are_regenerated_and_the_old_ones_end(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    world.add_user("ravi", "acme", roles=(Role.ACCESS_MONITORING,), email="ravi@acme.test")
    await sign_in("ravi")
    assert (await client.post("/api/second_factor/recovery_codes")).status_code == 409
    _, old = await _enrol_totp(client)
    new = (await client.post("/api/second_factor/recovery_codes")).json()["recoveryCodes"]
    assert len(new) == 10
    assert not set(new) & set(old)
    assert (await client.get("/api/second_factor")).json()["recoveryCodesLeft"] == 10
    await client.post("/logout")
    await client.post("/login", json={"username": "ravi@acme.test", "password": PASSWORD})
    assert (await client.post("/login/second_factor", json={"code": old[0]})).status_code == 401
    assert (await client.post("/login/second_factor", json={"code": new[0]})).status_code == 204


async def test_a_password_login_is_audited_with_its_method(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("bob")
    with Session(world.engine) as db:
        entries = db.exec(
            select(AuditLog).where(
                AuditLog.action == "login", AuditLog.actor_id == world.users["bob"]
            )
        ).all()
    assert entries[-1].detail["method"] == "password"
