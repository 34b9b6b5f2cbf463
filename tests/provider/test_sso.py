"""Single sign-on per company with OpenID Connect (issue 52, item 4), against a real identity
provider process on the loopback address (tests/sso_idp.py): real discovery, JWKS, signatures
and redirects. Administrators only set it up (403 for others, 422 for bad settings); a login
opens a session for an existing user of the company only, unless the company creates users;
wrong state or nonce, an expired token, an unverified e-mail, a foreign domain and another
company's identity provider are refused; a key rotation is followed; every login and refusal
is in the audit log with the issuer; a company may refuse passwords to its users."""

import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from sqlmodel import Session, col, select

from portal import routes
from portal.permissions import Role
from portal.provider.accounts import sso
from portal.provider.platform.models import AuditLog, CompanySso, SsoAttempt, User, utcnow
from portal.settings import get_settings
from tests.ports import free_port
from tests.provider.conftest import PASSWORD, SignIn, World
from tests.provider.settings_override import overridden
from tests.sso_idp import IdentityProvider

pytestmark = pytest.mark.usefixtures("fresh_rate_limits")


def _callback() -> str:
    return get_settings().portal_public_url + routes.SSO_CALLBACK_PATH


def _running(idp: IdentityProvider) -> Iterator[IdentityProvider]:
    idp.start()
    try:
        yield idp
    finally:
        idp.stop()


@pytest.fixture(scope="module")
def idp() -> Iterator[IdentityProvider]:
    yield from _running(IdentityProvider())


@pytest.fixture(scope="module")
def expired_idp() -> Iterator[IdentityProvider]:
    """Its ID tokens expired ten minutes before they are made (beyond any clock leeway)."""
    yield from _running(IdentityProvider(token_max_age=-600))


@pytest.fixture(scope="module", autouse=True)
def people(world: World) -> None:
    world.add_user("sara", "acme", roles=(Role.ACCESS_INVOICES,), email="sara@acme-sso.test")
    world.add_user("dora", "acme", email="dora@acme-sso.test", is_active=False)
    world.add_user("gus", "globex", email="gus@globex-sso.test")
    sso.forget_clients()


def _settings(idp: IdentityProvider, domain: str, **values: Any) -> dict[str, Any]:
    client_id, secret = idp.register(_callback())
    return {
        "issuer": idp.issuer,
        "clientId": client_id,
        "clientSecret": secret,
        "domains": [domain],
        "passwordAllowed": True,
        **values,
    }


async def _configure(
    client: httpx.AsyncClient,
    sign_in: SignIn,
    world: World,
    idp: IdentityProvider,
    company: str = "acme",
    **values: Any,
) -> dict[str, Any]:
    """Sets the company's single sign-on as the administrator, then signs out."""
    domain = {"acme": "acme-sso.test", "globex": "globex-sso.test"}[company]
    body = _settings(idp, domain, **values)
    await sign_in("admin")
    answer = await client.put(f"/api/companies/{world.companies[company]}/sso", json=body)
    assert answer.status_code == 200, answer.text
    await client.post("/logout")
    return body


async def _start(client: httpx.AsyncClient, email: str) -> httpx.Response:
    return await client.post("/login/sso/start", json={"email": email, "redirectUri": _callback()})


async def _through(
    client: httpx.AsyncClient, idp: IdentityProvider, email: str, sub: str | None = None
) -> httpx.Response:
    """A whole login: start, the identity provider's page (as ``sub``), the callback."""
    started = await _start(client, email)
    assert started.status_code == 200, started.text
    back = idp.authorize(started.json()["authorizationUrl"], sub or email)
    assert back["state"] == started.json()["state"]
    return await client.post("/login/sso/finish", json=back)


def _user(engine: sa.Engine, email: str) -> User | None:
    with Session(engine) as session:
        return session.exec(select(User).where(User.email == email)).first()


def _last_audit(engine: sa.Engine, action: str) -> AuditLog:
    with Session(engine) as session:
        statement = select(AuditLog).where(AuditLog.action == action)
        entry = session.exec(statement.order_by(col(AuditLog.at).desc())).first()
        assert entry is not None, action
        return entry


# Who may set it up


async def test_only_administrators_read_and_write_the_settings(
    client: httpx.AsyncClient, sign_in: SignIn, world: World, idp: IdentityProvider
) -> None:
    path = f"/api/companies/{world.companies['acme']}/sso"
    body = _settings(idp, "acme-sso.test")
    assert (await client.get(path)).status_code == 401
    for key in ("alice", "support"):
        await sign_in(key)
        assert (await client.get(path)).status_code == 403
        assert (await client.put(path, json=body)).status_code == 403
        assert (await client.delete(path)).status_code == 403
        await client.post("/logout")
    await sign_in("admin")
    assert (await client.put(path, json=body)).status_code == 200
    assert (await client.get(f"/api/companies/{uuid.uuid4()}/sso")).status_code == 404


async def test_the_secret_is_sealed_and_never_read_back(
    client: httpx.AsyncClient,
    sign_in: SignIn,
    world: World,
    engine: sa.Engine,
    idp: IdentityProvider,
) -> None:
    body = await _configure(client, sign_in, world, idp)
    with Session(engine) as session:
        stored = session.get_one(CompanySso, world.companies["acme"])
        assert stored.sealed_client_secret.startswith("v1.")
        assert body["clientSecret"] not in stored.sealed_client_secret
    await sign_in("admin")
    read = await client.get(f"/api/companies/{world.companies['acme']}/sso")
    assert read.json()["hasClientSecret"] is True
    assert read.json()["domains"] == ["acme-sso.test"]
    assert body["clientSecret"] not in read.text
    # Left out, the secret is kept: a login still passes the identity provider's check.
    kept = {**body, "clientSecret": None}
    path = f"/api/companies/{world.companies['acme']}/sso"
    assert (await client.put(path, json=kept)).status_code == 200
    assert _last_audit(engine, "sso_settings_changed").detail["issuer"] == idp.issuer
    await client.post("/logout")
    idp.set_user("sara@acme-sso.test", email="sara@acme-sso.test", email_verified=True)
    assert (await _through(client, idp, "sara@acme-sso.test")).status_code == 204


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"issuer": "http://idp.example.test"}, "issuer"),
        ({"issuer": "not a url"}, "issuer"),
        ({"clientId": " "}, "clientId"),
        ({"domains": ["not a domain"]}, "domains"),
        ({"domains": ["patchbay.test"]}, "domains"),
        ({"domains": ["globex-sso.test"]}, "domains"),
        ({"domains": []}, "domains"),
        ({"defaultRoles": ["ROLE_ADMIN"]}, "defaultRoles"),
        ({"defaultRoles": ["ROLE_NOBODY"]}, "defaultRoles"),
        ({"passwordAllowed": "perhaps"}, "passwordAllowed"),
    ],
)
async def test_bad_settings_are_violations(
    client: httpx.AsyncClient,
    sign_in: SignIn,
    world: World,
    idp: IdentityProvider,
    change: dict[str, Any],
    field: str,
) -> None:
    await _configure(client, sign_in, world, idp, "globex")
    await sign_in("admin")
    body = {**_settings(idp, "acme-sso.test"), **change}
    answer = await client.put(f"/api/companies/{world.companies['acme']}/sso", json=body)
    assert answer.status_code == 422, answer.text
    assert field in [v["propertyPath"] for v in answer.json()["violations"]]


async def test_a_first_setup_needs_the_secret(
    client: httpx.AsyncClient, sign_in: SignIn, world: World, idp: IdentityProvider
) -> None:
    await sign_in("admin")
    company = world.add_company(f"new-{uuid.uuid4().hex[:6]}", f"New {uuid.uuid4().hex[:6]}")
    body = {**_settings(idp, f"{uuid.uuid4().hex[:8]}.test"), "clientSecret": None}
    answer = await client.put(f"/api/companies/{company}/sso", json=body)
    assert answer.status_code == 422
    assert answer.json()["violations"][0]["propertyPath"] == "clientSecret"
    assert (await client.get(f"/api/companies/{company}/sso")).json()["configured"] is False


# Logging in


async def test_lookup_tells_by_the_domain(
    client: httpx.AsyncClient, sign_in: SignIn, world: World, idp: IdentityProvider
) -> None:
    await _configure(client, sign_in, world, idp, passwordAllowed=False)
    covered = await client.post("/login/sso/lookup", json={"email": "nobody@ACME-sso.test"})
    assert covered.json() == {"sso": True, "passwordAllowed": False}
    other = await client.post("/login/sso/lookup", json={"email": "alice@acme-networks.test"})
    assert other.json() == {"sso": False, "passwordAllowed": True}
    refused = await client.post(
        "/login/sso/start", json={"email": "x@acme-networks.test", "redirectUri": _callback()}
    )
    assert refused.status_code == 400
    assert "acme-networks.test" in refused.json()["detail"]


async def test_a_user_signs_in_through_the_identity_provider(
    client: httpx.AsyncClient,
    sign_in: SignIn,
    world: World,
    engine: sa.Engine,
    idp: IdentityProvider,
) -> None:
    await _configure(client, sign_in, world, idp)
    idp.set_user("sara-sub", email="sara@acme-sso.test", email_verified=True)
    started = await _start(client, "sara@acme-sso.test")
    url = started.json()["authorizationUrl"]
    for parameter in ("code_challenge=", "code_challenge_method=S256", "nonce=", "state="):
        assert parameter in url
    back = idp.authorize(url, "sara-sub")
    answer = await client.post("/login/sso/finish", json=back)
    assert answer.status_code == 204, answer.text
    user_id = str(world.users["sara"])
    assert answer.headers["Location"] == f"/api/users/{user_id}"
    assert (await client.get(f"/api/users/{user_id}")).status_code == 200
    entry = _last_audit(engine, "login")
    assert entry.detail == {
        "actor_email": "sara@acme-sso.test",
        "method": "sso",
        "issuer": idp.issuer,
    }
    # The state is spent: the same callback again is refused.
    again = await client.post("/login/sso/finish", json=back)
    assert again.status_code == 400
    assert again.json()["code"] == "sso_state"


async def test_an_unknown_state_is_refused(client: httpx.AsyncClient) -> None:
    answer = await client.post("/login/sso/finish", json={"state": "forged", "code": "x"})
    assert answer.status_code == 400
    assert answer.json()["code"] == "sso_state"


async def test_a_wrong_nonce_is_refused(
    client: httpx.AsyncClient,
    sign_in: SignIn,
    world: World,
    engine: sa.Engine,
    idp: IdentityProvider,
) -> None:
    await _configure(client, sign_in, world, idp)
    idp.set_user("sara-sub", email="sara@acme-sso.test", email_verified=True)
    started = await _start(client, "sara@acme-sso.test")
    back = idp.authorize(started.json()["authorizationUrl"], "sara-sub")
    # The ID token carries the nonce sent; the login now expects another one.
    with Session(engine) as session:
        for attempt in session.exec(select(SsoAttempt)):
            attempt.nonce = "another-nonce"
            session.add(attempt)
        session.commit()
    answer = await client.post("/login/sso/finish", json=back)
    assert answer.status_code == 400
    assert answer.json()["code"] == "sso_nonce"
    refusal = _last_audit(engine, "login_sso_refused")
    assert refusal.detail["reason"] == "sso_nonce"
    assert refusal.detail["issuer"] == idp.issuer


async def test_an_expired_token_is_refused(
    client: httpx.AsyncClient, sign_in: SignIn, world: World, expired_idp: IdentityProvider
) -> None:
    await _configure(client, sign_in, world, expired_idp)
    expired_idp.set_user("sara-sub", email="sara@acme-sso.test", email_verified=True)
    answer = await _through(client, expired_idp, "sara@acme-sso.test", "sara-sub")
    assert answer.status_code == 400
    assert answer.json()["code"] == "sso_expired"
    assert "expired" in answer.json()["detail"]


async def test_an_unverified_email_is_refused(
    client: httpx.AsyncClient, sign_in: SignIn, world: World, idp: IdentityProvider
) -> None:
    await _configure(client, sign_in, world, idp)
    idp.set_user("sara-sub", email="sara@acme-sso.test", email_verified=False)
    answer = await _through(client, idp, "sara@acme-sso.test", "sara-sub")
    assert answer.status_code == 403
    assert answer.json()["code"] == "sso_unverified"
    idp.set_user("sara-sub", email="sara@acme-sso.test")
    answer = await _through(client, idp, "sara@acme-sso.test", "sara-sub")
    assert answer.json()["code"] == "sso_unverified"


async def test_a_foreign_domain_is_refused(
    client: httpx.AsyncClient, sign_in: SignIn, world: World, idp: IdentityProvider
) -> None:
    """The identity provider vouches for an address of a domain the company does not cover."""
    await _configure(client, sign_in, world, idp)
    idp.set_user("alice-sub", email="alice@acme-networks.test", email_verified=True)
    answer = await _through(client, idp, "sara@acme-sso.test", "alice-sub")
    assert answer.status_code == 403
    assert answer.json()["code"] == "sso_domain"
    assert (await client.get("/api/users")).status_code == 401


async def test_another_companys_identity_provider_cannot_sign_in_this_companys_user(
    client: httpx.AsyncClient, sign_in: SignIn, world: World, idp: IdentityProvider
) -> None:
    await _configure(client, sign_in, world, idp, "acme")
    await _configure(client, sign_in, world, idp, "globex")
    # Globex's identity provider vouches for Sara of Acme.
    idp.set_user("sara-at-globex", email="sara@acme-sso.test", email_verified=True)
    answer = await _through(client, idp, "gus@globex-sso.test", "sara-at-globex")
    assert answer.status_code == 403
    assert answer.json()["code"] == "sso_domain"
    assert (await client.get("/api/users")).status_code == 401


async def test_a_user_not_yet_in_the_portal_is_refused_or_created(
    client: httpx.AsyncClient,
    sign_in: SignIn,
    world: World,
    engine: sa.Engine,
    idp: IdentityProvider,
) -> None:
    email = f"new.{uuid.uuid4().hex[:6]}@acme-sso.test"
    idp.set_user(email, email=email, email_verified=True, given_name="Néa", family_name="Blanc")
    await _configure(client, sign_in, world, idp)
    refused = await _through(client, idp, email)
    assert refused.status_code == 403
    assert refused.json()["code"] == "sso_user_unknown"
    assert email in refused.json()["detail"]
    assert _user(engine, email) is None

    roles = [Role.ACCESS_INVOICES.value, Role.ACCESS_MONITORING.value]
    await _configure(client, sign_in, world, idp, createUsers=True, defaultRoles=roles)
    created = await _through(client, idp, email)
    assert created.status_code == 204, created.text
    user = _user(engine, email)
    assert user is not None
    assert (user.firstname, user.lastname, user.company_id) == (
        "Néa",
        "Blanc",
        world.companies["acme"],
    )
    assert sorted(user.roles) == sorted(roles)
    assert user.password_hash is None
    assert not user.has_accepted_terms
    assert _last_audit(engine, "user_created").detail["via"] == "sso"


async def test_a_disabled_user_cannot_sign_in(
    client: httpx.AsyncClient, sign_in: SignIn, world: World, idp: IdentityProvider
) -> None:
    await _configure(client, sign_in, world, idp, createUsers=True)
    idp.set_user("dora-sub", email="dora@acme-sso.test", email_verified=True)
    answer = await _through(client, idp, "dora@acme-sso.test", "dora-sub")
    assert answer.status_code == 403
    assert answer.json()["code"] == "sso_disabled"


async def test_a_key_rotation_is_followed(
    client: httpx.AsyncClient, sign_in: SignIn, world: World
) -> None:
    """The identity provider signs with a new key: the JWKS read at the first login does not
    hold it, so the token's key id has the JWKS read again."""
    rotating = IdentityProvider(registration=False)
    rotating.start()
    try:
        body = {
            "issuer": rotating.issuer,
            "clientId": f"portal-{uuid.uuid4().hex[:6]}",
            "clientSecret": "any",
            "domains": ["acme-sso.test"],
            "passwordAllowed": True,
        }
        await sign_in("admin")
        path = f"/api/companies/{world.companies['acme']}/sso"
        assert (await client.put(path, json=body)).status_code == 200
        await client.post("/logout")
        rotating.set_user("sara-sub", email="sara@acme-sso.test", email_verified=True)
        assert (
            await _through(client, rotating, "sara@acme-sso.test", "sara-sub")
        ).status_code == 204
        first_keys = rotating.jwks_kids()
        rotating.rotate_keys()
        assert not set(first_keys) & set(rotating.jwks_kids())
        rotating.set_user("sara-sub", email="sara@acme-sso.test", email_verified=True)
        await client.post("/logout")
        answer = await _through(client, rotating, "sara@acme-sso.test", "sara-sub")
        assert answer.status_code == 204, answer.text
    finally:
        rotating.stop()


async def test_an_unreachable_identity_provider_is_said(
    client: httpx.AsyncClient, sign_in: SignIn, world: World
) -> None:
    body = {
        "issuer": f"http://127.0.0.1:{free_port()}",
        "clientId": "portal",
        "clientSecret": "secret",
        "domains": ["acme-sso.test"],
        "passwordAllowed": True,
    }
    await sign_in("admin")
    assert (
        await client.put(f"/api/companies/{world.companies['acme']}/sso", json=body)
    ).status_code == 200
    await client.post("/logout")
    answer = await _start(client, "sara@acme-sso.test")
    assert answer.status_code == 502
    assert "cannot be reached" in answer.json()["detail"]
    french = await client.post(
        "/login/sso/start",
        json={"email": "sara@acme-sso.test", "redirectUri": _callback()},
        headers={"Accept-Language": "fr"},
    )
    assert "fournisseur d'identité" in french.json()["detail"]


async def test_a_callback_elsewhere_is_refused(client: httpx.AsyncClient) -> None:
    answer = await client.post(
        "/login/sso/start",
        json={"email": "sara@acme-sso.test", "redirectUri": "https://evil.example/callback"},
    )
    assert answer.status_code == 422
    assert answer.json()["violations"][0]["propertyPath"] == "redirectUri"


# Passwords


async def test_a_company_may_refuse_passwords_to_its_users(
    client: httpx.AsyncClient,
    sign_in: SignIn,
    world: World,
    engine: sa.Engine,
    idp: IdentityProvider,
) -> None:
    await _configure(client, sign_in, world, idp, passwordAllowed=True)
    body = {"username": "sara@acme-sso.test", "password": PASSWORD}
    assert (await client.post("/login", json=body)).status_code == 204
    await client.post("/logout")
    await _configure(client, sign_in, world, idp, passwordAllowed=False)
    refused = await client.post("/login", json=body)
    assert refused.status_code == 403
    assert refused.json()["code"] == "sso_required"
    assert _last_audit(engine, "login_password_refused").detail["username"] == body["username"]
    # Other companies' users, and staff, keep their passwords.
    await sign_in("alice")
    await client.post("/logout")
    await sign_in("admin")


async def test_a_sign_in_left_too_long_is_refused(
    client: httpx.AsyncClient,
    sign_in: SignIn,
    world: World,
    engine: sa.Engine,
    idp: IdentityProvider,
) -> None:
    await _configure(client, sign_in, world, idp)
    idp.set_user("sara-sub", email="sara@acme-sso.test", email_verified=True)
    started = await _start(client, "sara@acme-sso.test")
    back = idp.authorize(started.json()["authorizationUrl"], "sara-sub")
    with Session(engine) as session:
        for attempt in session.exec(select(SsoAttempt)):
            attempt.expires_at = utcnow() - timedelta(seconds=1)
            session.add(attempt)
        session.commit()
    answer = await client.post("/login/sso/finish", json=back)
    assert answer.status_code == 400
    assert answer.json()["code"] == "sso_state"


async def test_starts_count_as_login_attempts(
    client: httpx.AsyncClient, sign_in: SignIn, world: World, idp: IdentityProvider
) -> None:
    await _configure(client, sign_in, world, idp)
    with overridden(login_limit_per_account=2):
        for _ in range(2):
            assert (await _start(client, "sara@acme-sso.test")).status_code == 200
        limited = await _start(client, "sara@acme-sso.test")
    assert limited.status_code == 429
    assert int(limited.headers["Retry-After"]) > 0
