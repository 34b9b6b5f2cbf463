"""Forgotten password and account confirmation (spec 2 and 7, DESIGN 4): 204 whatever the
e-mail, a 1-hour link by mail, hashed single-use tokens, the password rule, other sessions
ended."""

import re
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from sqlmodel import Session, col, select
from starlette.types import Message, Receive, Scope, Send

from portal.provider.platform.mail import send_account_confirmation
from portal.provider.platform.mail.outbox import wait_for_deliveries
from portal.provider.platform.models import AuditLog, OneTimeToken, ProviderSession, User, utcnow
from portal.provider.platform.sessions import COOKIE_NAME, token_hash
from tests.provider.conftest import BASE_URL, PASSWORD, SignIn, World
from tests.provider.mailbox import eml_messages, empty, link_token
from tests.provider.settings_override import overridden

NEW_PASSWORD = "Brand-New-Pass-2026"
INVALID_LINK = {
    "en": "This link is invalid or has expired. You can request a new password from the login "
    "page.",
    "fr": "Ce lien est invalide ou a expiré. Vous pouvez demander un nouveau mot de passe depuis "
    "la page de connexion.",
}


@pytest.fixture(autouse=True)
def no_earlier_mail(mail_dir: Path) -> None:
    empty(mail_dir)


@pytest.fixture(autouse=True)
def generous_limits() -> Iterator[None]:
    """This module asks for many resets from one address; the limits have their own tests."""
    with overridden(reset_limit_per_account=1000, reset_limit_per_address=1000):
        yield


async def _request_reset(client: httpx.AsyncClient, email: str) -> httpx.Response:
    return await client.post("/reset", json={"email": email})


async def _reset_token(client: httpx.AsyncClient, mail_dir: Path, email: str) -> str:
    response = await _request_reset(client, email)
    assert response.status_code == 204, response.text
    return link_token(eml_messages(mail_dir, email)[-1], "/reset-password")


def _without_password(world: World, user_id: uuid.UUID) -> None:
    with Session(world.engine) as session:
        user = session.get_one(User, user_id)
        user.password_hash = None
        session.add(user)
        session.commit()


def _tokens_of(world: World, key: str) -> list[OneTimeToken]:
    with Session(world.engine) as session:
        return list(
            session.exec(select(OneTimeToken).where(OneTimeToken.user_id == world.users[key]))
        )


# --- asking for a link ------------------------------------------------------------------------


async def test_a_known_email_gets_a_reset_link_by_mail(
    client: httpx.AsyncClient, world: World, mail_dir: Path
) -> None:
    response = await _request_reset(client, " Alice@ACME-networks.test ")
    assert response.status_code == 204
    assert response.content == b""
    [message] = eml_messages(mail_dir, "alice@acme-networks.test")
    token = link_token(message, "http://localhost:3000/reset-password")
    [stored] = _tokens_of(world, "alice")
    assert stored.token_hash == token_hash(token)
    assert stored.purpose == "reset"
    assert abs(stored.expires_at - (utcnow() + timedelta(hours=1))) < timedelta(minutes=1)


@pytest.mark.parametrize(
    "email",
    [
        "nobody@acme-networks.test",  # no such account
        "gone@example.test",  # an inactive account
        "ldap-user@example.test",  # the directory holds this password
    ],
)
async def test_other_emails_get_the_same_answer_and_no_mail(
    client: httpx.AsyncClient, world: World, mail_dir: Path, email: str
) -> None:
    if "ldap-user" not in world.users:
        _without_password(world, world.add_user("ldap-user", "acme", ldap=True))
    known = await _request_reset(client, "bob@example.test")
    response = await _request_reset(client, email)
    assert response.status_code == known.status_code == 204
    assert response.content == known.content == b""
    assert sorted(response.headers.keys()) == sorted(known.headers.keys())
    assert eml_messages(mail_dir, email) == []


async def test_every_request_is_audited_known_or_not(
    client: httpx.AsyncClient, world: World
) -> None:
    await _request_reset(client, "helene@example.test")
    await _request_reset(client, "unknown@example.test")
    with Session(world.engine) as session:
        entries = session.exec(
            select(AuditLog).where(AuditLog.action == "password_reset_requested")
        ).all()
    by_email = {entry.detail["username"]: entry for entry in entries}
    assert by_email["helene@example.test"].subject_id == world.users["helene"]
    assert by_email["unknown@example.test"].subject_id is None
    assert by_email["unknown@example.test"].client_address == "127.0.0.1"


@pytest.mark.parametrize(
    ("email", "message"),
    [("", "This value should not be blank."), ("not-an-email", "Invalid email")],
)
async def test_a_blank_or_malformed_email_answers_422(
    client: httpx.AsyncClient, world: World, email: str, message: str
) -> None:
    response = await _request_reset(client, email)
    assert response.status_code == 422
    assert response.json()["violations"] == [{"propertyPath": "email", "message": message}]


async def test_the_mail_follows_the_language_of_the_last_login(
    client: httpx.AsyncClient, world: World, mail_dir: Path
) -> None:
    response = await client.post(
        "/login",
        json={"username": "bram@example.test", "password": PASSWORD},
        headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"},
    )
    assert response.status_code == 204
    client.cookies.clear()
    await _request_reset(client, "bram@example.test")
    [message] = eml_messages(mail_dir, "bram@example.test")
    assert message["Subject"] == "Réinitialisez votre mot de passe"


# --- using the link ---------------------------------------------------------------------------


async def test_a_reset_sets_the_password_once(
    client: httpx.AsyncClient, world: World, mail_dir: Path
) -> None:
    token = await _reset_token(client, mail_dir, "claire@example.test")
    response = await client.post(f"/reset/{token}", json={"password": NEW_PASSWORD})
    assert response.status_code == 204
    login = {"username": "claire@example.test"}
    assert (await client.post("/login", json={**login, "password": PASSWORD})).status_code == 401
    assert (
        await client.post("/login", json={**login, "password": NEW_PASSWORD})
    ).status_code == 204
    client.cookies.clear()
    again = await client.post(f"/reset/{token}", json={"password": "Another-Pass-2027"})
    assert again.status_code == 400
    assert again.json()["detail"] == INVALID_LINK["en"]
    with Session(world.engine) as session:
        assert session.exec(
            select(AuditLog).where(
                AuditLog.action == "password_reset", AuditLog.subject_id == world.users["claire"]
            )
        ).first()


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_an_unknown_token_answers_400_with_the_translated_message(
    client: httpx.AsyncClient, world: World, language: str
) -> None:
    response = await client.post(
        "/reset/not-a-token",
        json={"password": NEW_PASSWORD},
        headers={"Accept-Language": language},
    )
    assert response.status_code == 400
    assert response.json()["detail"] == INVALID_LINK[language]


async def test_an_expired_token_answers_400(
    client: httpx.AsyncClient, world: World, mail_dir: Path
) -> None:
    token = await _reset_token(client, mail_dir, "helene@example.test")
    with Session(world.engine) as session:
        stored = session.exec(
            select(OneTimeToken).where(OneTimeToken.token_hash == token_hash(token))
        ).one()
        stored.expires_at = utcnow() - timedelta(seconds=1)
        session.add(stored)
        session.commit()
    response = await client.post(f"/reset/{token}", json={"password": NEW_PASSWORD})
    assert response.status_code == 400


@pytest.mark.parametrize(
    ("password", "language", "message"),
    [
        (
            "short1A",
            "en",
            "The password must have at least 10 characters, including one number and one "
            "uppercase letter.",
        ),
        ("no-digits-Here", "en", None),
        ("no-uppercase-42", "en", None),
        (
            "short1A",
            "fr",
            "Le mot de passe doit comporter au moins 10 caractères, dont un chiffre et une "
            "majuscule.",
        ),
    ],
)
async def test_a_weak_password_answers_422_and_leaves_the_token_usable(
    client: httpx.AsyncClient,
    world: World,
    mail_dir: Path,
    password: str,
    language: str,
    message: str | None,
) -> None:
    token = await _reset_token(client, mail_dir, "helene@example.test")
    response = await client.post(
        f"/reset/{token}", json={"password": password}, headers={"Accept-Language": language}
    )
    assert response.status_code == 422
    [violation] = response.json()["violations"]
    assert violation["propertyPath"] == "password"
    if message:
        assert violation["message"] == message
    assert (
        await client.post(f"/reset/{token}", json={"password": NEW_PASSWORD})
    ).status_code == 204


async def test_a_reset_spends_every_other_link_of_the_user(
    client: httpx.AsyncClient, world: World, mail_dir: Path
) -> None:
    first = await _reset_token(client, mail_dir, "bob@example.test")
    second = await _reset_token(client, mail_dir, "bob@example.test")
    assert first != second
    assert (
        await client.post(f"/reset/{second}", json={"password": NEW_PASSWORD})
    ).status_code == 204
    assert (
        await client.post(f"/reset/{first}", json={"password": NEW_PASSWORD})
    ).status_code == 400
    assert all(token.used_at is not None for token in _tokens_of(world, "bob"))


async def test_a_reset_ends_every_session_of_the_user(
    app: FastAPI, client: httpx.AsyncClient, world: World, sign_in: SignIn, mail_dir: Path
) -> None:
    world.add_user("dora", "acme", roles=("ROLE_ACCESS_MONITORING",))
    elsewhere = (await sign_in("dora")).cookies[COOKIE_NAME]
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url=BASE_URL) as other:
        token = await _reset_token(other, mail_dir, "dora@example.test")
        assert (
            await other.post(f"/reset/{token}", json={"password": NEW_PASSWORD})
        ).status_code == 204
    assert (await client.get("/api/users")).status_code == 401
    with Session(world.engine) as session:
        assert session.get(ProviderSession, token_hash(elsewhere)) is None
        assert not session.exec(
            select(ProviderSession).where(col(ProviderSession.user_id) == world.users["dora"])
        ).first()


async def test_a_confirmation_token_sets_the_first_password(
    client: httpx.AsyncClient, world: World, mail_dir: Path
) -> None:
    _without_password(world, world.add_user("fresh", "acme"))
    with Session(world.engine) as session:
        send_account_confirmation(session, session.get_one(User, world.users["fresh"]), "en")
        session.commit()
    token = link_token(eml_messages(mail_dir, "fresh@example.test")[-1], "/confirm-account")
    body = {"username": "fresh@example.test", "password": NEW_PASSWORD}
    assert (await client.post("/login", json=body)).status_code == 401
    assert (
        await client.post(f"/reset/{token}", json={"password": NEW_PASSWORD})
    ).status_code == 204
    assert (await client.post("/login", json=body)).status_code == 204
    with Session(world.engine) as session:
        assert session.exec(
            select(AuditLog).where(
                AuditLog.action == "account_confirmed", AuditLog.subject_id == world.users["fresh"]
            )
        ).first()


def _statements_before_the_answer(
    app: FastAPI, engine: sa.Engine
) -> tuple[httpx.AsyncClient, list[str]]:
    """A client of ``app`` and the SQL statements run before each answer's first byte left,
    with their parameters left out (the e-mail itself differs)."""
    statements: list[str] = []
    answered = False

    def executed(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if not answered:
            statements.append(re.sub(r"\s+", " ", statement))

    sa.event.listen(engine, "before_cursor_execute", executed)

    async def watched(scope: Scope, receive: Receive, send: Send) -> None:
        nonlocal answered
        answered = False

        async def sending(message: Message) -> None:
            nonlocal answered
            if message["type"] == "http.response.start":
                answered = True
            await send(message)

        await app(scope, receive, sending)

    transport = httpx.ASGITransport(watched)
    return httpx.AsyncClient(transport=transport, base_url=BASE_URL), statements


async def test_a_known_and_an_unknown_email_do_the_same_work_before_the_answer(
    app: FastAPI, world: World, engine: sa.Engine, mail_dir: Path
) -> None:
    """Issue 18, item 8: a known e-mail answered ~3 ms later (a token issued and a mail composed
    before the answer). The same statements now run before the answer, whatever the e-mail."""
    client, statements = _statements_before_the_answer(app, engine)
    work: dict[str, list[str]] = {}
    async with client:
        known = world.email("claire")
        for email in (known, "nobody@acme-networks.test"):
            await _request_reset(client, "warm-up@acme-networks.test")
            # Earlier mails are sent by the outbox's own thread, on the same engine: its
            # statements must not fall into the next answer's window.
            wait_for_deliveries()
            statements.clear()
            assert (await _request_reset(client, email)).status_code == 204
            work[email] = list(statements)
    assert work[known] == work["nobody@acme-networks.test"]
    assert any("INSERT INTO audit" in s for s in work[known])
    # The link is still issued and mailed, once the answer has left.
    assert len(eml_messages(mail_dir, known)) == 1
