"""Webhooks (issue 51, items 4 and 5): a company's user managers register HTTPS endpoints,
which receive signed events from an outbox — against a real HTTPS receiver started here with
its own certificate authority, its host name let through by WEBHOOK_ALLOWED_HOSTS and its
signatures verified with the Standard Webhooks library. Retries on errors and timeouts, order
per endpoint, the endpoint disabled after the retry window (a moved clock) with its managers
told, rotation, SSRF refusals at registration and at delivery, and who may do what."""

import ipaddress
import itertools
import json
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from sqlmodel import Session, col, select
from standardwebhooks import Webhook, WebhookVerificationError

from portal.permissions import Role
from portal.provider.platform import outbound, webhooks
from portal.provider.platform.api_tokens import READ_SCOPES, issue_token
from portal.provider.platform.models import (
    ApiTokenKind,
    User,
    WebhookDelivery,
    WebhookDeliveryState,
    WebhookEndpoint,
    utcnow,
)
from tests.provider.conftest import SignIn, World
from tests.provider.mailbox import body, eml_messages, empty
from tests.provider.settings_override import overridden
from tests.webhook_receiver import HOST, Received, Receiver, Reply, https_receiver

WEBHOOKS = "/api/webhooks"
PUBLIC_HOST = "hooks.example.com"
# What the resolver answers in these tests: the receiver's name leads to it (let through by
# WEBHOOK_ALLOWED_HOSTS); the others to what each test sets.
ADDRESSES: dict[str, list[str]] = {}


@pytest.fixture(scope="module")
def receiver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Receiver]:
    with https_receiver(tmp_path_factory.mktemp("receiver")) as receiver:
        yield receiver


@pytest.fixture(scope="module")
def managers(world: World) -> World:
    world.add_user("nadia", "acme", roles=(Role.MANAGE_USERS,), language="fr")
    return world


@pytest.fixture(autouse=True)
def setting(
    receiver: Receiver, engine: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    def resolve(host: str, port: int) -> list[outbound.Address]:
        if host not in ADDRESSES:
            raise OSError(f"{host} is unknown")
        return [ipaddress.ip_address(address) for address in ADDRESSES[host]]

    ADDRESSES.clear()
    ADDRESSES.update({HOST: ["127.0.0.1"], PUBLIC_HOST: ["93.184.215.14"]})
    monkeypatch.setattr(outbound, "resolve", resolve)
    receiver.received.clear()
    receiver.script.clear()
    receiver.default = Reply()
    with overridden(
        webhook_allowed_hosts=json.dumps([HOST]),
        webhook_ca_file=receiver.ca_file,
        webhook_timeout_seconds=1,
        webhook_retry_seconds=10,
    ):
        yield
        webhooks.wait_for_deliveries()
    with engine.begin() as connection:
        connection.execute(sa.delete(WebhookDelivery))
        connection.execute(sa.delete(WebhookEndpoint))


async def _register(
    client: httpx.AsyncClient, url: str, events: list[str] | None = None, **more: object
) -> dict[str, object]:
    body = {"url": url, "eventTypes": events or ["ticket.created"], **more}
    response = await client.post(WEBHOOKS, json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


@pytest.fixture
async def endpoint(
    client: httpx.AsyncClient, sign_in: SignIn, managers: World, receiver: Receiver
) -> dict[str, object]:
    """An endpoint of Acme's for its new tickets, on the receiver, registered by Alice, who
    stays logged in."""
    await sign_in("alice")
    return await _register(client, receiver.url())


def _deliveries(engine: sa.Engine, endpoint_id: str) -> list[WebhookDelivery]:
    with Session(engine) as db:
        statement = (
            select(WebhookDelivery)
            .where(col(WebhookDelivery.endpoint_id) == uuid.UUID(endpoint_id))
            .order_by(col(WebhookDelivery.id))
        )
        return list(db.exec(statement).all())


def _queue(engine: sa.Engine, endpoint_id: str, count: int) -> None:
    """``count`` ticket events for the endpoint, as a domain would announce them."""
    with Session(engine) as db:
        endpoint = db.get_one(WebhookEndpoint, uuid.UUID(endpoint_id))
        for number in range(count):
            webhooks.announce(
                db, "ticket.created", [endpoint.company_id], lambda _c, n=number: {"number": n}
            )
        db.commit()


def _verify(secret: str, received: Received) -> dict[str, object]:
    return dict(Webhook(secret).verify(received.body, received.headers))


# --- who may do what ----------------------------------------------------------------------


async def test_without_a_session_every_route_is_a_401(client: httpx.AsyncClient) -> None:
    assert (await client.get(WEBHOOKS)).status_code == 401
    body = {"url": f"https://{PUBLIC_HOST}/", "eventTypes": ["ticket.created"]}
    assert (await client.post(WEBHOOKS, json=body)).status_code == 401


async def test_a_user_without_the_permission_gets_403_on_every_route(
    client: httpx.AsyncClient, sign_in: SignIn, managers: World
) -> None:
    await sign_in("alice")
    endpoint = await _register(client, f"https://{PUBLIC_HOST}/hook")
    await client.get("/logout")
    await sign_in("bob")
    path = f"{WEBHOOKS}/{endpoint['id']}"
    body = {"url": f"https://{PUBLIC_HOST}/", "eventTypes": ["ticket.created"]}
    for method, url, json_body in (
        ("GET", WEBHOOKS, None),
        ("POST", WEBHOOKS, body),
        ("GET", path, None),
        ("PATCH", path, {"enabled": False}),
        ("DELETE", path, None),
        ("POST", f"{path}/rotate_secret", None),
        ("POST", f"{path}/test", None),
        ("GET", f"{path}/deliveries", None),
    ):
        response = await client.request(method, url, json=json_body)
        assert response.status_code == 403, (method, url, response.text)


async def test_a_personal_api_token_reaches_no_webhook_route(
    client: httpx.AsyncClient, sign_in: SignIn, managers: World
) -> None:
    await sign_in("alice")
    endpoint = await _register(client, f"https://{PUBLIC_HOST}/hook")
    await client.get("/logout")
    with Session(managers.engine) as db:
        owner = db.get_one(User, managers.users["alice"])
        _, value = issue_token(db, owner, "NOC", READ_SCOPES, kind=ApiTokenKind.PERSONAL)
        db.commit()
    bearer = {"Authorization": f"Bearer {value}"}
    assert (await client.get("/api/services", headers=bearer)).status_code == 200
    for method, url in (
        ("GET", WEBHOOKS),
        ("GET", f"{WEBHOOKS}/{endpoint['id']}"),
        ("GET", f"{WEBHOOKS}/{endpoint['id']}/deliveries"),
        ("POST", f"{WEBHOOKS}/{endpoint['id']}/rotate_secret"),
    ):
        response = await client.request(method, url, headers=bearer)
        assert response.status_code == 403, (method, url, response.text)


async def test_another_companys_endpoint_is_a_404_on_every_route(
    client: httpx.AsyncClient, sign_in: SignIn, managers: World, engine: sa.Engine
) -> None:
    await sign_in("alice")
    endpoint = await _register(client, f"https://{PUBLIC_HOST}/hook")
    await client.get("/logout")
    await sign_in("claire")
    path = f"{WEBHOOKS}/{endpoint['id']}"
    for method, url, json_body in (
        ("GET", path, None),
        ("PATCH", path, {"enabled": False}),
        ("POST", f"{path}/rotate_secret", None),
        ("POST", f"{path}/test", None),
        ("GET", f"{path}/deliveries", None),
        ("DELETE", path, None),
    ):
        response = await client.request(method, url, json=json_body)
        assert response.status_code == 404, (method, url, response.text)
    listed = (await client.get(WEBHOOKS)).json()
    assert listed["hydra:totalItems"] == 0
    # Claire cannot register one for Acme either.
    response = await client.post(
        WEBHOOKS,
        json={
            "url": f"https://{PUBLIC_HOST}/",
            "eventTypes": ["ticket.created"],
            "company": f"/api/companies/{managers.companies['acme']}",
        },
    )
    assert response.status_code == 422
    assert [v["propertyPath"] for v in response.json()["violations"]] == ["company"]
    with Session(engine) as db:
        assert db.get_one(WebhookEndpoint, uuid.UUID(str(endpoint["id"]))).enabled


async def test_a_manager_registers_for_an_auxiliary_company_and_lists_both(
    client: httpx.AsyncClient, sign_in: SignIn, managers: World
) -> None:
    await sign_in("alice")
    own = await _register(client, f"https://{PUBLIC_HOST}/a")
    benelux = f"/api/companies/{managers.companies['benelux']}"
    other = await _register(client, f"https://{PUBLIC_HOST}/b", company=benelux)
    assert own["company"] == f"/api/companies/{managers.companies['acme']}"
    assert other["company"] == benelux
    listed = (await client.get(WEBHOOKS)).json()
    assert [member["id"] for member in listed["hydra:member"]] == [own["id"], other["id"]]
    assert all("secret" not in member for member in listed["hydra:member"])


# --- registration -------------------------------------------------------------------------


async def test_the_secret_is_shown_once_and_sealed_at_rest(
    client: httpx.AsyncClient, sign_in: SignIn, managers: World, engine: sa.Engine
) -> None:
    await sign_in("alice")
    endpoint = await _register(
        client, f"https://{PUBLIC_HOST}/hook", ["maintenance.scheduled"], description="NOC"
    )
    secret = str(endpoint["secret"])
    assert secret.startswith("whsec_")
    assert endpoint["eventTypes"] == ["maintenance.scheduled"]
    assert endpoint["enabled"] is True
    read = (await client.get(f"{WEBHOOKS}/{endpoint['id']}")).json()
    assert "secret" not in read
    assert read["description"] == "NOC"
    with Session(engine) as db:
        row = db.get_one(WebhookEndpoint, uuid.UUID(str(endpoint["id"])))
        assert row.secret.startswith("v1.")
        assert secret.removeprefix("whsec_") not in row.secret
        assert webhooks.signing_secrets(row, utcnow()) == [secret]


async def test_bad_input_is_a_422_with_violations(
    client: httpx.AsyncClient, sign_in: SignIn, managers: World
) -> None:
    await sign_in("alice")
    response = await client.post(
        WEBHOOKS,
        json={
            "url": f"http://{PUBLIC_HOST}/",
            "eventTypes": ["ticket.created", "ticket.deleted", "ticket.created"],
        },
    )
    assert response.status_code == 422
    assert [v["propertyPath"] for v in response.json()["violations"]] == [
        "url",
        "eventTypes[1]",
        "eventTypes[2]",
    ]
    for wrong in ({"url": "https://x.example/"}, {"url": 3, "eventTypes": ["ping"]}, {}):
        assert (await client.post(WEBHOOKS, json=wrong)).status_code == 422
    for url in ("https://user:pw@hooks.example.com/", "https:///nohost", "https://[::1"):
        response = await client.post(WEBHOOKS, json={"url": url, "eventTypes": ["ticket.created"]})
        assert response.status_code == 422, url


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",  # loopback
        "10.1.2.3",  # private
        "172.16.5.4",
        "192.168.1.1",
        "100.64.0.1",  # shared (carrier-grade NAT)
        "169.254.169.254",  # link-local: the cloud metadata address
        "224.0.0.251",  # multicast
        "240.0.0.1",  # reserved
        "0.0.0.0",  # unspecified
        "::1",
        "fe80::1",
        "fc00::1",
        "fd00:ec2::254",  # AWS's IPv6 metadata address
        "ff02::1",
        "::ffff:10.0.0.1",  # IPv4 in IPv6
    ],
)
async def test_internal_addresses_are_refused_at_registration(
    client: httpx.AsyncClient, sign_in: SignIn, managers: World, address: str
) -> None:
    await sign_in("alice")
    literal = f"[{address}]" if ":" in address else address
    ADDRESSES["internal.example.com"] = [address]
    for url in (f"https://{literal}/hook", "https://internal.example.com/hook"):
        response = await client.post(WEBHOOKS, json={"url": url, "eventTypes": ["ticket.updated"]})
        assert response.status_code == 422, (url, response.text)
        [violation] = response.json()["violations"]
        assert violation["propertyPath"] == "url"
        assert "internal address" in violation["message"]


async def test_a_name_with_one_internal_address_among_public_ones_is_refused(
    client: httpx.AsyncClient, sign_in: SignIn, managers: World
) -> None:
    await sign_in("alice")
    ADDRESSES["mixed.example.com"] = ["93.184.215.14", "10.0.0.8"]
    ADDRESSES.pop("unknown.example.com", None)
    for url in ("https://mixed.example.com/", "https://unknown.example.com/"):
        response = await client.post(WEBHOOKS, json={"url": url, "eventTypes": ["ticket.created"]})
        assert response.status_code == 422, url
    refused = await client.patch(
        f"{WEBHOOKS}/{(await _register(client, f'https://{PUBLIC_HOST}/'))['id']}",
        json={"url": "https://mixed.example.com/"},
    )
    assert refused.status_code == 422


# --- delivery -----------------------------------------------------------------------------


async def test_a_test_event_is_signed_delivered_and_logged(
    client: httpx.AsyncClient, endpoint: dict[str, object], receiver: Receiver
) -> None:
    receiver.default = Reply(200, b'{"thanks": true}')
    response = await client.post(f"{WEBHOOKS}/{endpoint['id']}/test")
    assert response.status_code == 202, response.text
    queued = response.json()
    assert queued["eventType"] == "ping"
    assert queued["state"] == "pending"
    webhooks.wait_for_deliveries()
    [received] = receiver.received
    assert received.path == "/hook"
    assert received.headers["host"] == f"{HOST}:{receiver.port}"
    assert received.headers["content-type"] == "application/json"
    assert received.headers["webhook-id"] == queued["messageId"]
    event = _verify(str(endpoint["secret"]), received)
    assert event["type"] == "ping"
    assert set(event) == {"type", "timestamp", "data"}
    with pytest.raises(WebhookVerificationError):
        Webhook(webhooks.new_secret()).verify(received.body, received.headers)
    log = (await client.get(f"{WEBHOOKS}/{endpoint['id']}/deliveries")).json()
    [entry] = log["hydra:member"]
    assert entry["state"] == "delivered"
    assert entry["attempts"] == 1
    assert entry["responseStatus"] == 200
    assert entry["responseExcerpt"] == '{"thanks": true}'
    assert entry["latencyMs"] >= 0
    assert entry["lastAttemptAt"] is not None
    assert entry["nextAttemptAt"] is None


async def test_a_500_is_retried_later_under_the_same_webhook_id(
    client: httpx.AsyncClient,
    endpoint: dict[str, object],
    receiver: Receiver,
    engine: sa.Engine,
) -> None:
    receiver.script = [Reply(500, b"database down")]
    await client.post(f"{WEBHOOKS}/{endpoint['id']}/test")
    webhooks.wait_for_deliveries()
    [waiting] = _deliveries(engine, str(endpoint["id"]))
    assert waiting.state == WebhookDeliveryState.PENDING
    assert waiting.response_status == 500
    assert waiting.response_excerpt == "database down"
    first_wait = waiting.next_attempt_at.replace(tzinfo=utcnow().tzinfo) - utcnow()
    assert timedelta(seconds=5) < first_wait <= timedelta(seconds=10)
    # Not due yet: nothing is tried.
    assert webhooks.deliver_due(engine) == 0
    assert len(receiver.received) == 1
    assert webhooks.deliver_due(engine, now=utcnow() + timedelta(seconds=11)) == 1
    first, second = receiver.received
    assert first.headers["webhook-id"] == second.headers["webhook-id"] == waiting.message_id
    assert first.body == second.body
    _verify(str(endpoint["secret"]), second)
    [delivered] = _deliveries(engine, str(endpoint["id"]))
    assert delivered.state == WebhookDeliveryState.DELIVERED
    assert delivered.attempts == 2


async def test_the_wait_doubles_after_each_failure(
    client: httpx.AsyncClient,
    endpoint: dict[str, object],
    receiver: Receiver,
    engine: sa.Engine,
) -> None:
    receiver.default = Reply(503)
    await client.post(f"{WEBHOOKS}/{endpoint['id']}/test")
    webhooks.wait_for_deliveries()
    now = utcnow()
    waits = []
    for _ in range(3):
        [delivery] = _deliveries(engine, str(endpoint["id"]))
        due = delivery.next_attempt_at.replace(tzinfo=now.tzinfo)
        waits.append(due)
        now = due + timedelta(seconds=1)
        assert webhooks.deliver_due(engine, now=now) == 0
    [delivery] = _deliveries(engine, str(endpoint["id"]))
    assert delivery.attempts == 4
    # Each attempt a second after it was due, then a wait of 10 s, 20 s, 40 s.
    assert [round((b - a).total_seconds()) for a, b in itertools.pairwise(waits)] == [
        21,
        41,
    ]


async def test_a_receiver_that_does_not_answer_in_time_is_retried(
    client: httpx.AsyncClient,
    endpoint: dict[str, object],
    receiver: Receiver,
    engine: sa.Engine,
) -> None:
    receiver.script = [Reply(200, delay=2.5)]
    await client.post(f"{WEBHOOKS}/{endpoint['id']}/test")
    webhooks.wait_for_deliveries()
    [waiting] = _deliveries(engine, str(endpoint["id"]))
    assert waiting.state == WebhookDeliveryState.PENDING
    assert waiting.response_status is None
    assert waiting.error == "No answer within 1 s."
    assert webhooks.deliver_due(engine, now=utcnow() + timedelta(seconds=11)) == 1
    [delivered] = _deliveries(engine, str(endpoint["id"]))
    assert delivered.state == WebhookDeliveryState.DELIVERED
    log = (await client.get(f"{WEBHOOKS}/{endpoint['id']}/deliveries")).json()
    assert log["hydra:member"][0]["attempts"] == 2


async def test_events_reach_an_endpoint_in_order_a_failure_holding_back_the_next(
    client: httpx.AsyncClient,
    endpoint: dict[str, object],
    receiver: Receiver,
    engine: sa.Engine,
) -> None:
    receiver.script = [Reply(500)]
    _queue(engine, str(endpoint["id"]), 3)
    webhooks.wait_for_deliveries()
    # The first failed: the two after it were not sent before it.
    assert len(receiver.received) == 1
    assert webhooks.deliver_due(engine, now=utcnow() + timedelta(seconds=11)) == 3
    numbers = [json.loads(r.body)["data"]["number"] for r in receiver.received]
    assert numbers == [0, 0, 1, 2]
    assert [d.state for d in _deliveries(engine, str(endpoint["id"]))] == [
        WebhookDeliveryState.DELIVERED
    ] * 3


async def test_an_endpoint_claimed_by_another_worker_is_left_to_it(
    client: httpx.AsyncClient,
    endpoint: dict[str, object],
    receiver: Receiver,
    engine: sa.Engine,
) -> None:
    endpoint_id = uuid.UUID(str(endpoint["id"]))
    with engine.begin() as connection:
        connection.execute(
            sa.update(WebhookEndpoint)
            .where(col(WebhookEndpoint.id) == endpoint_id)
            .values(claimed_until=utcnow() + timedelta(seconds=60))
        )
    _queue(engine, str(endpoint_id), 1)
    webhooks.wait_for_deliveries()
    assert receiver.received == []
    # The claim of a worker that died runs out, and another delivers.
    assert webhooks.deliver_due(engine, now=utcnow() + timedelta(seconds=61)) == 1
    assert len(receiver.received) == 1


async def test_after_the_retry_window_the_endpoint_is_disabled_and_its_managers_told(
    client: httpx.AsyncClient,
    endpoint: dict[str, object],
    managers: World,
    receiver: Receiver,
    engine: sa.Engine,
    mail_dir: Path,
) -> None:
    empty(mail_dir)
    receiver.default = Reply(500)
    _queue(engine, str(endpoint["id"]), 2)
    webhooks.wait_for_deliveries()
    # Within the window: still retried.
    assert webhooks.deliver_due(engine, now=utcnow() + timedelta(hours=23)) == 0
    read = (await client.get(f"{WEBHOOKS}/{endpoint['id']}")).json()
    assert read["enabled"] is True
    assert webhooks.deliver_due(engine, now=utcnow() + timedelta(hours=24, minutes=1)) == 0
    read = (await client.get(f"{WEBHOOKS}/{endpoint['id']}")).json()
    assert read["enabled"] is False
    assert read["disabledReason"] == "failing"
    states = [d.state for d in _deliveries(engine, str(endpoint["id"]))]
    assert states == [WebhookDeliveryState.FAILED] * 2
    [english] = eml_messages(mail_dir, managers.email("alice"))
    assert english["Subject"] == "A webhook endpoint of your company was disabled"
    assert receiver.url() in body(english, "plain")
    [french] = eml_messages(mail_dir, managers.email("nadia"))
    assert french["Subject"] == "Un point de réception webhook de votre société a été désactivé"
    # Bob manages nothing; Claire is of another company.
    assert eml_messages(mail_dir, managers.email("bob")) == []
    assert eml_messages(mail_dir, managers.email("claire")) == []
    # Disabled, it is sent nothing; enabled again, it gets the events that follow only.
    sent = len(receiver.received)
    _queue(engine, str(endpoint["id"]), 1)
    assert len(_deliveries(engine, str(endpoint["id"]))) == 2
    receiver.default = Reply()
    enabled = await client.patch(f"{WEBHOOKS}/{endpoint['id']}", json={"enabled": True})
    assert enabled.json()["disabledReason"] is None
    _queue(engine, str(endpoint["id"]), 1)
    webhooks.wait_for_deliveries()
    assert len(receiver.received) == sent + 1


async def test_a_rotation_signs_with_both_secrets_for_24_hours(
    client: httpx.AsyncClient,
    endpoint: dict[str, object],
    receiver: Receiver,
    engine: sa.Engine,
) -> None:
    old = str(endpoint["secret"])
    rotated = (await client.post(f"{WEBHOOKS}/{endpoint['id']}/rotate_secret")).json()
    new = str(rotated["secret"])
    assert new.startswith("whsec_")
    assert new != old
    assert rotated["previousSecretExpiresAt"] is not None
    await client.post(f"{WEBHOOKS}/{endpoint['id']}/test")
    webhooks.wait_for_deliveries()
    [received] = receiver.received
    assert len(received.headers["webhook-signature"].split(" ")) == 2
    assert _verify(old, received)["type"] == "ping"
    assert _verify(new, received)["type"] == "ping"
    with Session(engine) as db:
        row = db.get_one(WebhookEndpoint, uuid.UUID(str(endpoint["id"])))
        assert webhooks.signing_secrets(row, utcnow() + timedelta(hours=23)) == [new, old]
        assert webhooks.signing_secrets(row, utcnow() + timedelta(hours=24, seconds=1)) == [new]


async def test_a_name_that_now_resolves_inside_is_refused_at_delivery(
    client: httpx.AsyncClient,
    sign_in: SignIn,
    managers: World,
    receiver: Receiver,
    engine: sa.Engine,
) -> None:
    await sign_in("alice")
    endpoint = await _register(client, f"https://{PUBLIC_HOST}:{receiver.port}/hook")
    # Between registration and delivery, the name was pointed at an internal address.
    ADDRESSES[PUBLIC_HOST] = ["127.0.0.1"]
    await client.post(f"{WEBHOOKS}/{endpoint['id']}/test")
    webhooks.wait_for_deliveries()
    for hours, address in enumerate(("10.9.8.7", "169.254.169.254", "fd00:ec2::254"), start=1):
        ADDRESSES[PUBLIC_HOST] = [address]
        webhooks.deliver_due(engine, now=utcnow() + timedelta(hours=hours))
        [delivery] = _deliveries(engine, str(endpoint["id"]))
        assert delivery.state == WebhookDeliveryState.PENDING
        assert f"leads to an internal address ({address})" in delivery.error
        assert delivery.response_status is None
        assert delivery.attempts == hours + 1
    assert receiver.received == []


async def test_a_redirect_is_not_followed(
    client: httpx.AsyncClient,
    endpoint: dict[str, object],
    receiver: Receiver,
    engine: sa.Engine,
) -> None:
    receiver.script = [Reply(307, b"", headers=(("location", receiver.url("/elsewhere")),))]
    await client.post(f"{WEBHOOKS}/{endpoint['id']}/test")
    webhooks.wait_for_deliveries()
    assert [r.path for r in receiver.received] == ["/hook"]
    [delivery] = _deliveries(engine, str(endpoint["id"]))
    assert delivery.state == WebhookDeliveryState.PENDING
    assert delivery.response_status == 307


def test_at_most_4_kib_of_an_answer_is_read(receiver: Receiver) -> None:
    receiver.script = [Reply(200, b"x" * 100_000)]
    answer = outbound.post(receiver.url(), b"{}", {"content-type": "application/json"})
    assert answer.status == 200
    assert len(answer.excerpt) == outbound.MAX_BODY


def test_an_answer_dripped_slower_than_the_timeout_is_cut(receiver: Receiver) -> None:
    # Each byte comes well within the timeout; the whole answer would not.
    receiver.script = [Reply(200, b"x" * 40, drip=0.1)]
    with pytest.raises(httpx.ReadTimeout):
        outbound.post(receiver.url(), b"{}", {})


def test_an_unknown_certificate_authority_is_refused(receiver: Receiver) -> None:
    with overridden(webhook_ca_file=""), pytest.raises(httpx.ConnectError):
        outbound.post(receiver.url(), b"{}", {})


async def test_each_company_gets_the_object_as_it_sees_it(
    client: httpx.AsyncClient, sign_in: SignIn, managers: World, engine: sa.Engine
) -> None:
    await sign_in("alice")
    acme = await _register(client, f"https://{PUBLIC_HOST}/a", ["maintenance.updated"])
    await _register(client, f"https://{PUBLIC_HOST}/b", ["ticket.updated"])
    await client.get("/logout")
    await sign_in("claire")
    globex = await _register(client, f"https://{PUBLIC_HOST}/g", ["maintenance.updated"])
    rendered = []

    def render(company_id: uuid.UUID) -> dict[str, object]:
        rendered.append(company_id)
        return {"services": [str(company_id)]}

    companies = [managers.companies[c] for c in ("acme", "globex", "benelux")]
    with Session(engine) as db:
        assert webhooks.announce(db, "maintenance.updated", companies, render) == 2
        db.commit()
    # Benelux has no endpoint: nothing was rendered for it.
    assert sorted(rendered) == sorted(companies[:2])
    for endpoint, company in ((acme, "acme"), (globex, "globex")):
        [delivery] = _deliveries(engine, str(endpoint["id"]))
        event = json.loads(delivery.payload)
        assert event["type"] == "maintenance.updated"
        assert event["data"] == {"services": [str(managers.companies[company])]}


async def test_disabling_deleting_and_a_test_event_on_a_disabled_endpoint(
    client: httpx.AsyncClient, sign_in: SignIn, managers: World, engine: sa.Engine
) -> None:
    await sign_in("alice")
    endpoint = await _register(client, f"https://{PUBLIC_HOST}/hook")
    path = f"{WEBHOOKS}/{endpoint['id']}"
    changed = await client.patch(
        path, json={"enabled": False, "description": "Paused", "eventTypes": ["ticket.updated"]}
    )
    assert changed.status_code == 200, changed.text
    assert changed.json()["disabledReason"] == "manual"
    assert changed.json()["eventTypes"] == ["ticket.updated"]
    refused = await client.post(f"{path}/test")
    assert refused.status_code == 409
    _queue(engine, str(endpoint["id"]), 1)
    assert _deliveries(engine, str(endpoint["id"])) == []
    assert (await client.patch(path, json={"eventTypes": []})).status_code == 422
    assert (await client.delete(path)).status_code == 204
    assert (await client.get(path)).status_code == 404
    assert (await client.delete(path)).status_code == 404
