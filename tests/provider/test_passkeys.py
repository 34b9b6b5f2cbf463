"""Passkeys (issue 52, item 1): registered by the signed-in user, listed, renamed and deleted as
their own only; a login without a password by a discoverable credential, or the second step of
a password login; challenges single-use and short-lived, user verification, the signature
counter, the origin and the credential's owner all checked; every login audited with its
method; a disabled user refused."""

from datetime import timedelta
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from sqlmodel import Session, col, select

from portal.permissions import Role
from portal.provider.accounts.second_factor import PENDING_COOKIE
from portal.provider.platform.models import AuditLog, User, WebAuthnChallenge, utcnow
from portal.provider.platform.sessions import COOKIE_NAME
from tests.provider.authenticator import Authenticator
from tests.provider.conftest import PASSWORD, SignIn, World

pytestmark = pytest.mark.usefixtures("fresh_rate_limits")


def _user(world: World, key: str, company: str = "acme") -> str:
    if key not in world.users:
        world.add_user(key, company, roles=(Role.ACCESS_MONITORING,), email=f"{key}@pk.test")
    return world.email(key)


async def _register(
    client: httpx.AsyncClient, authenticator: Authenticator, name: str = "Laptop"
) -> dict[str, Any]:
    options = (await client.post("/api/passkey_registrations")).json()
    credential = authenticator.create(options["publicKey"])
    body = {"challengeToken": options["challengeToken"], "name": name, "credential": credential}
    created = await client.post("/api/passkeys", json=body)
    assert created.status_code == 201, created.text
    return {**created.json(), "credentialId": credential["id"]}


async def _enrolled(
    client: httpx.AsyncClient, sign_in: SignIn, world: World, key: str
) -> tuple[Authenticator, str]:
    """A user with one passkey, signed out; the authenticator and the credential's id."""
    _user(world, key)
    await sign_in(key)
    authenticator = Authenticator()
    passkey = await _register(client, authenticator)
    await client.post("/logout")
    return authenticator, passkey["credentialId"]


async def _sign_in_with(
    client: httpx.AsyncClient, authenticator: Authenticator, credential_id: str, **kwargs: Any
) -> httpx.Response:
    options = (await client.post("/login/passkey/options")).json()
    assertion = authenticator.get(options["publicKey"], credential_id, **kwargs)
    body = {"challengeToken": options["challengeToken"], "credential": assertion}
    return await client.post("/login/passkey", json=body)


def _audit(world: World, action: str) -> list[AuditLog]:
    with Session(world.engine) as db:
        statement = select(AuditLog).where(AuditLog.action == action)
        return list(db.exec(statement.order_by(col(AuditLog.at))).all())


async def test_without_a_session_passkeys_answer_401(client: httpx.AsyncClient) -> None:
    assert (await client.get("/api/passkeys")).status_code == 401
    assert (await client.post("/api/passkey_registrations")).status_code == 401


async def test_a_user_registers_lists_renames_and_deletes_a_passkey(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    _user(world, "pk-own")
    await sign_in("pk-own")
    options = (await client.post("/api/passkey_registrations")).json()
    public_key = options["publicKey"]
    assert public_key["rp"]["id"] == "localhost"
    assert public_key["authenticatorSelection"]["residentKey"] == "required"
    assert public_key["authenticatorSelection"]["userVerification"] == "required"
    authenticator = Authenticator()
    credential = authenticator.create(public_key)
    body = {"challengeToken": options["challengeToken"], "name": "Laptop", "credential": credential}
    created = await client.post("/api/passkeys", json=body)
    assert created.status_code == 201, created.text
    # The first second factor comes with ten recovery codes, shown once.
    assert len(created.json()["recoveryCodes"]) == 10
    second = await _register(client, Authenticator(), "Phone")
    assert second["recoveryCodes"] == []
    listed = (await client.get("/api/passkeys")).json()
    assert [p["name"] for p in listed] == ["Laptop", "Phone"]
    assert listed[0]["lastUsedAt"] is None
    assert listed[0]["createdAt"]
    passkey_id = created.json()["id"]
    renamed = await client.patch(f"/api/passkeys/{passkey_id}", json={"name": "Work laptop"})
    assert renamed.json()["name"] == "Work laptop"
    blank = await client.patch(f"/api/passkeys/{passkey_id}", json={"name": "  "})
    assert blank.status_code == 422
    assert blank.json()["violations"][0]["propertyPath"] == "name"
    assert (await client.get("/api/second_factor")).json()["passkeys"] == 2
    assert (await client.delete(f"/api/passkeys/{passkey_id}")).status_code == 204
    assert [p["name"] for p in (await client.get("/api/passkeys")).json()] == ["Phone"]
    assert _audit(world, "passkey_registered")[-1].actor_id == world.users["pk-own"]
    assert _audit(world, "passkey_removed")[-1].detail["passkey"] == "Work laptop"


async def test_a_registration_challenge_serves_once(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    _user(world, "pk-once")
    await sign_in("pk-once")
    options = (await client.post("/api/passkey_registrations")).json()
    authenticator = Authenticator()
    body = {
        "challengeToken": options["challengeToken"],
        "name": "One",
        "credential": authenticator.create(options["publicKey"]),
    }
    assert (await client.post("/api/passkeys", json=body)).status_code == 201
    body["credential"] = authenticator.create(options["publicKey"])
    again = await client.post("/api/passkeys", json=body)
    assert again.status_code == 422
    assert again.json()["detail"] == "This passkey could not be registered. Please try again."


async def test_a_registration_without_user_verification_or_from_another_origin_is_refused(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    _user(world, "pk-uv")
    await sign_in("pk-uv")
    for authenticator, verified in (
        (Authenticator(), False),
        (Authenticator(origin="https://evil.example"), True),
    ):
        options = (await client.post("/api/passkey_registrations")).json()
        credential = authenticator.create(options["publicKey"], verified=verified)
        body = {"challengeToken": options["challengeToken"], "name": "X", "credential": credential}
        assert (await client.post("/api/passkeys", json=body)).status_code == 422
    garbage = (await client.post("/api/passkey_registrations")).json()
    body = {"challengeToken": garbage["challengeToken"], "name": "X", "credential": {"id": 1}}
    assert (await client.post("/api/passkeys", json=body)).status_code == 422
    assert (await client.get("/api/passkeys")).json() == []


async def test_another_users_passkey_answers_404(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    _user(world, "pk-mine")
    await sign_in("pk-mine")
    mine = await _register(client, Authenticator())
    await client.post("/logout")
    # Staff included: one's passkeys are one's own.
    for key in ("claire", "admin"):
        await sign_in(key)
        assert (await client.delete(f"/api/passkeys/{mine['id']}")).status_code == 404
        renamed = await client.patch(f"/api/passkeys/{mine['id']}", json={"name": "Mine"})
        assert renamed.status_code == 404
        assert (await client.get("/api/passkeys")).json() == []
        await client.post("/logout")


async def test_a_passkey_signs_in_without_a_password_audited(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    authenticator, credential_id = await _enrolled(client, sign_in, world, "pk-login")
    options = (await client.post("/login/passkey/options")).json()
    assert options["publicKey"]["allowCredentials"] == []  # discoverable: any passkey
    assert options["publicKey"]["userVerification"] == "required"
    assertion = authenticator.get(options["publicKey"], credential_id)
    body = {"challengeToken": options["challengeToken"], "credential": assertion}
    signed_in = await client.post("/login/passkey", json=body)
    assert signed_in.status_code == 204, signed_in.text
    assert signed_in.headers["Location"] == f"/api/users/{world.users['pk-login']}"
    assert COOKIE_NAME in signed_in.cookies
    assert (await client.get("/api/services")).status_code == 200
    login = _audit(world, "login")[-1]
    assert login.actor_id == world.users["pk-login"]
    assert login.detail["method"] == "passkey"
    assert "second_factor" not in login.detail
    assert (await client.get("/api/passkeys")).json()[0]["lastUsedAt"] is not None


async def test_a_sign_in_challenge_serves_once(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    authenticator, credential_id = await _enrolled(client, sign_in, world, "pk-replay")
    options = (await client.post("/login/passkey/options")).json()
    body = {
        "challengeToken": options["challengeToken"],
        "credential": authenticator.get(options["publicKey"], credential_id),
    }
    assert (await client.post("/login/passkey", json=body)).status_code == 204
    await client.post("/logout")
    body["credential"] = authenticator.get(options["publicKey"], credential_id)
    replayed = await client.post("/login/passkey", json=body)
    assert replayed.status_code == 401
    assert COOKIE_NAME not in replayed.cookies
    assert _audit(world, "passkey_failed")


async def test_an_expired_challenge_is_refused(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    authenticator, credential_id = await _enrolled(client, sign_in, world, "pk-expired")
    options = (await client.post("/login/passkey/options")).json()
    with Session(world.engine) as db:
        db.exec(sa.update(WebAuthnChallenge).values(expires_at=utcnow() - timedelta(seconds=1)))
        db.commit()
    body = {
        "challengeToken": options["challengeToken"],
        "credential": authenticator.get(options["publicKey"], credential_id),
    }
    assert (await client.post("/login/passkey", json=body)).status_code == 401


async def test_a_counter_that_goes_back_is_refused(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    """A cloned authenticator shows itself by a counter that does not grow."""
    authenticator, credential_id = await _enrolled(client, sign_in, world, "pk-counter")
    assert (await _sign_in_with(client, authenticator, credential_id, count=5)).status_code == 204
    await client.post("/logout")
    for count in (5, 3):
        refused = await _sign_in_with(client, authenticator, credential_id, count=count)
        assert refused.status_code == 401
    assert (await _sign_in_with(client, authenticator, credential_id, count=6)).status_code == 204


async def test_a_sign_in_without_user_verification_or_from_another_origin_is_refused(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    authenticator, credential_id = await _enrolled(client, sign_in, world, "pk-uv-login")
    refused = await _sign_in_with(client, authenticator, credential_id, verified=False)
    assert refused.status_code == 401
    assert refused.json()["detail"] == (
        "This passkey was not accepted. Please try again, or use your password."
    )
    authenticator.origin = "https://evil.example"
    assert (await _sign_in_with(client, authenticator, credential_id)).status_code == 401


async def test_a_disabled_user_cannot_sign_in_with_a_passkey(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    authenticator, credential_id = await _enrolled(client, sign_in, world, "pk-disabled")
    with Session(world.engine) as db:
        user = db.get_one(User, world.users["pk-disabled"])
        user.is_active = False
        db.add(user)
        db.commit()
    assert (await _sign_in_with(client, authenticator, credential_id)).status_code == 401


async def test_a_passkey_is_the_second_step_of_a_password_login(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    authenticator, credential_id = await _enrolled(client, sign_in, world, "pk-2fa")
    email = world.email("pk-2fa")
    due = await client.post("/login", json={"username": email, "password": PASSWORD})
    assert due.status_code == 202
    assert due.json()["methods"] == ["passkey", "recovery_code"]
    assert PENDING_COOKIE in due.cookies
    options = (await client.post("/login/passkey/options")).json()
    # The pending login's user: only their passkeys are offered.
    assert [c["id"] for c in options["publicKey"]["allowCredentials"]] == [credential_id]
    body = {
        "challengeToken": options["challengeToken"],
        "credential": authenticator.get(options["publicKey"], credential_id),
        "remember": False,
    }
    signed_in = await client.post("/login/passkey", json=body)
    assert signed_in.status_code == 204, signed_in.text
    login = _audit(world, "login")[-1]
    assert login.detail["method"] == login.detail["second_factor"] == "passkey"


async def test_another_users_passkey_cannot_finish_a_pending_login(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await _enrolled(client, sign_in, world, "pk-victim")
    thief, thief_credential = await _enrolled(client, sign_in, world, "pk-thief")
    email = world.email("pk-victim")
    assert (
        await client.post("/login", json={"username": email, "password": PASSWORD})
    ).status_code == 202
    options = (await client.post("/login/passkey/options")).json()
    body = {
        "challengeToken": options["challengeToken"],
        "credential": thief.get(options["publicKey"], thief_credential),
    }
    refused = await client.post("/login/passkey", json=body)
    assert refused.status_code == 401
    assert COOKIE_NAME not in refused.cookies


async def test_a_credential_whose_user_handle_names_someone_else_is_refused(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    authenticator, credential_id = await _enrolled(client, sign_in, world, "pk-handle")
    credential = next(iter(authenticator.credentials.values()))
    credential.user_handle = world.users["alice"].bytes
    assert (await _sign_in_with(client, authenticator, credential_id)).status_code == 401


async def test_while_impersonating_passkeys_are_not_changed(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    _user(world, "pk-imp")
    await sign_in("admin")
    started = await client.post("/api/impersonation", json={"email": world.email("pk-imp")})
    assert started.status_code in (200, 204), started.text
    assert (await client.post("/api/passkey_registrations")).status_code == 403
    assert (await client.get("/api/passkeys")).status_code == 403
