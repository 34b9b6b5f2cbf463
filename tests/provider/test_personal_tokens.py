"""Personal API tokens (issue 51): a user who may make them (``CREATE_API_TOKENS``, customers'
user managers) makes tokens that read, with GET, the customer routes of their scopes, answering
exactly what the user would see with a session: the same companies, the user's rights read at
each request. A write, a route outside the scopes, an expired or revoked token, a user who lost
the right or left are refused; each token is rate-limited and counted in the metrics."""

import hashlib
import re
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import httpx
import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from sqlmodel import Session, select

from portal.permissions import Role
from portal.provider.platform.api_tokens import READ_ROUTES, READ_SCOPES
from portal.provider.platform.models import (
    ApiToken,
    ApiTokenKind,
    Sensor,
    SensorStatus,
    Ticket,
    TicketAttachment,
    TicketPriority,
    TicketStatus,
    User,
    utcnow,
)
from tests.provider.conftest import BASE_URL, SignIn, World
from tests.provider.metric_values import sample
from tests.provider.services_data import Catalogue, catalogue, data_dir  # noqa: F401
from tests.provider.settings_override import overridden

TOKENS = "/api/personal_tokens"
NINA_ROLES = (Role.MANAGE_USERS, Role.ACCESS_INVOICES, Role.ACCESS_MONITORING)


@dataclass
class Estate:
    """The module's tickets, attachments and sensors by short name, beside the catalogue."""

    ids: dict[str, uuid.UUID] = field(default_factory=dict)


@pytest.fixture(scope="module")
def estate(world: World, catalogue: Catalogue) -> Estate:  # noqa: F811
    world.add_user("nina", "acme", roles=NINA_ROLES, auxiliary=("benelux",), firstname="Nina")
    estate = Estate()
    with Session(world.engine) as session:
        for key, company in (("acme", "acme"), ("globex", "globex")):
            ticket = Ticket(
                number=7000 + len(estate.ids),
                reference=f"HD-{key}",
                company_id=world.companies[company],
                name=f"INC-{key}",
                date_created=datetime(2026, 10, 1, tzinfo=UTC),
                subject=f"Ticket of {key}",
                status=TicketStatus.OPEN,
                priority=TicketPriority.MEDIUM,
                account_name=key,
            )
            session.add(ticket)
            session.flush()
            attachment = TicketAttachment(
                ticket_id=ticket.id, filename="loa.pdf", size=10, file_path="documents/loa.pdf"
            )
            sensor = Sensor(
                reference=f"S-{key}",
                company_id=world.companies[company],
                group="Paris",
                device="par-ce1",
                name=f"Traffic {key}",
                status=SensorStatus.UP,
            )
            session.add_all([attachment, sensor])
            session.flush()
            estate.ids.update(
                {f"ticket-{key}": ticket.id, f"attachment-{key}": attachment.id}
                | {f"sensor-{key}": sensor.id}
            )
        session.commit()
    return estate


def examples(catalogue: Catalogue, estate: Estate, company: str) -> dict[str, str]:  # noqa: F811
    """Every route a personal token reads, by template, with ids of ``company``'s data
    (``acme``, Nina's, or ``globex``, another company's)."""
    acme = company == "acme"
    service = catalogue.services["PB-ETH-1001" if acme else "PB-ETH-3001"]
    document = catalogue.documents["handover" if acme else "foreign"]
    termination = catalogue.documents["termination-acme" if acme else "termination-globex"]
    invoice = catalogue.invoices["INV-A1" if acme else "INV-G1"]
    maintenance = catalogue.maintenances["MNT-3" if acme else "MNT-2"]
    ticket, attachment = estate.ids[f"ticket-{company}"], estate.ids[f"attachment-{company}"]
    sensor = estate.ids[f"sensor-{company}"]
    type_id = catalogue.types["ethernet_epl"]
    return {
        "/api/services": "/api/services",
        "/api/services/{service_id}": f"/api/services/{service}",
        "/api/services/{service_id}/documents/{document_id}": (
            f"/api/services/{service}/documents/{document}"
        ),
        "/api/services/{service_id}/order_pdf": f"/api/services/{service}/order_pdf",
        "/api/services/export": "/api/services/export",
        "/api/service_types": "/api/service_types",
        "/api/service_types/{type_id}": f"/api/service_types/{type_id}",
        "/api/termination_documents": "/api/termination_documents",
        "/api/termination_documents/{document_id}": f"/api/termination_documents/{termination}",
        "/api/termination_documents/{document_id}/file": (
            f"/api/termination_documents/{termination}/file"
        ),
        "/api/invoices": "/api/invoices",
        "/api/invoices/summary": "/api/invoices/summary",
        "/api/invoices/{invoice_id}": f"/api/invoices/{invoice}",
        "/api/invoices/{invoice_id}/pdf": f"/api/invoices/{invoice}/pdf",
        "/api/tickets": "/api/tickets",
        "/api/tickets/{ticket_id}": f"/api/tickets/{ticket}",
        "/api/tickets/{ticket_id}/attachments/{attachment_id}": (
            f"/api/tickets/{ticket}/attachments/{attachment}"
        ),
        "/api/maintenances": "/api/maintenances",
        "/api/maintenances/{maintenance_id}": f"/api/maintenances/{maintenance}",
        "/api/sensors": "/api/sensors",
        "/api/sensors/{sensor_id}/chart_legend": f"/api/sensors/{sensor}/chart_legend",
        "/api/sensors/{sensor_id}/chart/svg": f"/api/sensors/{sensor}/chart/svg",
        "/api/sensors/{sensor_id}/chart/data": f"/api/sensors/{sensor}/chart/data",
    }


# The routes whose path names one row: another company's row is not found.
ONE_ROW = [route for routes in READ_ROUTES.values() for route in routes if "{" in route]
# Ids that name no company's data: the same for everyone.
SHARED = {"/api/service_types/{type_id}"}


@pytest.fixture
async def anonymous(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """A client that never logged in: it sends the token and nothing else."""
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url=BASE_URL) as client:
        yield client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def in_days(days: int) -> str:
    return (utcnow() + timedelta(days=days)).isoformat()


async def create(
    client: httpx.AsyncClient, scopes: tuple[str, ...] = tuple(READ_SCOPES), days: int = 30
) -> dict:
    body = {"name": "NOC", "scopes": list(scopes), "expiresAt": in_days(days)}
    response = await client.post(TOKENS, json=body)
    assert response.status_code == 201, response.text
    return response.json()


def change_user(engine: sa.Engine, key_id: uuid.UUID, **values: object) -> None:
    with Session(engine) as session:
        user = session.get_one(User, key_id)
        for name, value in values.items():
            setattr(user, name, value)
        session.add(user)
        session.commit()


def stored(engine: sa.Engine, token_id: str) -> ApiToken:
    with Session(engine) as session:
        return session.exec(select(ApiToken).where(ApiToken.id == uuid.UUID(token_id))).one()


def set_token(engine: sa.Engine, token_id: str, **values: object) -> None:
    with Session(engine) as session:
        token = session.get_one(ApiToken, uuid.UUID(token_id))
        for name, value in values.items():
            setattr(token, name, value)
        session.add(token)
        session.commit()


async def test_a_token_is_shown_once_stored_hashed_and_listed_by_its_owner_only(
    client: httpx.AsyncClient, world: World, estate: Estate, sign_in: SignIn
) -> None:
    await sign_in("nina")
    created = await create(client, ("services",), days=365)
    value = created["token"]
    assert value.startswith("pbt_")
    assert created["scopes"] == ["services"]
    assert created["state"] == "active"
    assert created["lastUsedAt"] is None
    row = stored(world.engine, created["id"])
    assert row.kind == ApiTokenKind.PERSONAL
    assert row.token_hash == hashlib.sha256(value.encode()).hexdigest()

    listed = (await client.get(TOKENS)).json()["hydra:member"]
    assert [member["id"] for member in listed] == [created["id"]]
    assert {"createdAt", "lastUsedAt", "expiresAt"} <= set(listed[0])
    assert "token" not in listed[0]

    await sign_in("alice")
    assert (await client.get(TOKENS)).json()["hydra:member"] == []
    assert (await client.delete(f"{TOKENS}/{created['id']}")).status_code == 404
    await sign_in("admin")
    # Not an integration token: the administrators' list and revocation do not reach it.
    integration = (await client.get("/api/tokens")).json()["hydra:member"]
    assert created["id"] not in [member["id"] for member in integration]
    assert (await client.delete(f"/api/tokens/{created['id']}")).status_code == 404
    assert stored(world.engine, created["id"]).revoked_at is None


@pytest.mark.parametrize("who", ["bob", "admin", "support"])
async def test_only_a_customer_user_manager_makes_a_token(
    who: str, client: httpx.AsyncClient, world: World, estate: Estate, sign_in: SignIn
) -> None:
    await sign_in(who)
    body = {"name": "x", "scopes": ["services"], "expiresAt": in_days(1)}
    assert (await client.post(TOKENS, json=body)).status_code == 403


async def test_no_token_is_made_while_impersonated(
    client: httpx.AsyncClient, world: World, estate: Estate
) -> None:
    from tests.provider.accounts import impersonating

    impersonating(client, world, "admin", "nina")
    body = {"name": "x", "scopes": ["services"], "expiresAt": in_days(1)}
    response = await client.post(TOKENS, json=body)
    assert response.status_code == 403
    assert "impersonating" in response.json()["detail"]


@pytest.mark.parametrize(
    ("scopes", "days", "paths"),
    [
        (["services", "everything"], 1, ["scopes[1]"]),
        (["services", "services"], 1, ["scopes[1]"]),
        (["services"], 366, ["expiresAt"]),
        (["services"], -1, ["expiresAt"]),
    ],
)
async def test_a_bad_token_body_is_a_422_naming_the_field(
    scopes: list[str],
    days: int,
    paths: list[str],
    client: httpx.AsyncClient,
    world: World,
    estate: Estate,
    sign_in: SignIn,
) -> None:
    await sign_in("nina")
    body = {"name": "x", "scopes": scopes, "expiresAt": in_days(days)}
    response = await client.post(TOKENS, json=body)
    assert response.status_code == 422, response.text
    assert [v["propertyPath"] for v in response.json()["violations"]] == paths


async def test_an_expiry_is_required_and_a_scope_beyond_ones_rights_refused(
    client: httpx.AsyncClient, world: World, estate: Estate, sign_in: SignIn
) -> None:
    await sign_in("claire")  # a user manager without invoices nor monitoring
    response = await client.post(TOKENS, json={"name": "x", "scopes": ["services"]})
    assert response.status_code == 422
    body = {"name": "x", "scopes": ["services", "invoices", "monitoring"], "expiresAt": in_days(1)}
    response = await client.post(TOKENS, json=body)
    assert response.status_code == 422
    paths = [v["propertyPath"] for v in response.json()["violations"]]
    assert paths == ["scopes[1]", "scopes[2]"]


async def test_a_token_reads_every_route_of_its_scopes_as_its_user_does(
    client: httpx.AsyncClient,
    anonymous: httpx.AsyncClient,
    world: World,
    catalogue: Catalogue,  # noqa: F811
    estate: Estate,
    sign_in: SignIn,
) -> None:
    await sign_in("nina")
    value = (await create(client))["token"]
    routes = examples(catalogue, estate, "acme")
    assert set(routes) == {route for group in READ_ROUTES.values() for route in group}
    for route, path in routes.items():
        with_session = await client.get(path)
        with_token = await anonymous.get(path, headers=bearer(value))
        assert with_token.status_code == with_session.status_code == 200, (path, with_token.text)
        if not route.endswith(("/svg", "/data")):  # drawn up to now: the moments differ
            assert with_token.content == with_session.content, path
    assert not anonymous.cookies


@pytest.mark.parametrize("scope", list(READ_SCOPES))
async def test_a_token_of_one_scope_reads_that_scope_only(
    scope: str,
    client: httpx.AsyncClient,
    anonymous: httpx.AsyncClient,
    world: World,
    catalogue: Catalogue,  # noqa: F811
    estate: Estate,
    sign_in: SignIn,
) -> None:
    await sign_in("nina")
    value = (await create(client, (scope,)))["token"]
    for route, path in examples(catalogue, estate, "acme").items():
        response = await anonymous.get(path, headers=bearer(value))
        if route in READ_ROUTES[scope]:
            assert response.status_code == 200, (path, response.text)
        else:
            assert response.status_code == 403, path
            assert "may not read" in response.json()["detail"]


async def test_another_companys_data_is_not_found_nor_listed(
    client: httpx.AsyncClient,
    anonymous: httpx.AsyncClient,
    world: World,
    catalogue: Catalogue,  # noqa: F811
    estate: Estate,
    sign_in: SignIn,
) -> None:
    await sign_in("nina")
    value = (await create(client))["token"]
    foreign = examples(catalogue, estate, "globex")
    for route in ONE_ROW:
        if route in SHARED:
            continue
        response = await anonymous.get(foreign[route], headers=bearer(value))
        assert response.status_code == 404, (route, response.status_code)
    services = (await anonymous.get("/api/services", headers=bearer(value))).json()
    references = {member["reference"] for member in services["hydra:member"]}
    assert references == {"PB-ETH-1001", "PB-WAV-1002", "PB-DFB-1003", "PB-COL-1004", "PB-IPT-2001"}
    tickets = (await anonymous.get("/api/tickets", headers=bearer(value))).json()
    assert "HD-globex" not in str(tickets)
    invoices = (await anonymous.get("/api/invoices", headers=bearer(value))).json()
    assert "INV-G1" not in str(invoices)


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/api/services/client_reference"),
        ("PUT", "/api/integration/services"),
        ("POST", TOKENS),
        ("DELETE", f"{TOKENS}/00000000-0000-0000-0000-000000000000"),
        ("PATCH", "/api/users/{nina}"),
        ("POST", "/api/calendar_feed"),
    ],
)
async def test_a_write_with_a_read_token_is_403(
    method: str,
    path: str,
    client: httpx.AsyncClient,
    anonymous: httpx.AsyncClient,
    world: World,
    estate: Estate,
    sign_in: SignIn,
) -> None:
    await sign_in("nina")
    value = (await create(client))["token"]
    path = path.format(nina=world.users["nina"])
    response = await anonymous.request(method, path, json={}, headers=bearer(value))
    assert response.status_code == 403, response.text
    assert "only reads" in response.json()["detail"]


@pytest.mark.parametrize(
    "path", ["/api/users", "/api/users/{nina}", TOKENS, "/api/calendar_feed", "/api/companies"]
)
async def test_a_read_outside_the_customer_routes_is_403(
    path: str,
    client: httpx.AsyncClient,
    anonymous: httpx.AsyncClient,
    world: World,
    estate: Estate,
    sign_in: SignIn,
) -> None:
    await sign_in("nina")
    value = (await create(client))["token"]
    response = await anonymous.get(path.format(nina=world.users["nina"]), headers=bearer(value))
    assert response.status_code == 403, response.text


async def test_an_expired_or_revoked_token_is_401(
    client: httpx.AsyncClient,
    anonymous: httpx.AsyncClient,
    world: World,
    estate: Estate,
    sign_in: SignIn,
) -> None:
    await sign_in("nina")
    expiring, revoked = await create(client), await create(client)
    for token in (expiring, revoked):
        response = await anonymous.get("/api/services", headers=bearer(token["token"]))
        assert response.status_code == 200
    set_token(world.engine, expiring["id"], expires_at=utcnow() - timedelta(seconds=1))
    assert (await client.delete(f"{TOKENS}/{revoked['id']}")).status_code == 204
    for token in (expiring, revoked):
        response = await anonymous.get("/api/services", headers=bearer(token["token"]))
        assert response.status_code == 401
    states = {m["id"]: m["state"] for m in (await client.get(TOKENS)).json()["hydra:member"]}
    assert states[expiring["id"]] == "expired"
    assert states[revoked["id"]] == "revoked"


async def test_a_removed_role_is_removed_from_the_token_at_once(
    client: httpx.AsyncClient,
    anonymous: httpx.AsyncClient,
    world: World,
    estate: Estate,
    sign_in: SignIn,
) -> None:
    world.add_user("olga", "acme", roles=NINA_ROLES, firstname="Olga")
    await sign_in("olga")
    value = (await create(client))["token"]
    assert (await anonymous.get("/api/invoices", headers=bearer(value))).status_code == 200
    change_user(
        world.engine, world.users["olga"], roles=[Role.MANAGE_USERS, Role.ACCESS_MONITORING]
    )
    assert (await anonymous.get("/api/invoices", headers=bearer(value))).status_code == 403
    assert (await anonymous.get("/api/sensors", headers=bearer(value))).status_code == 200
    # Without the right to make tokens, the user's tokens stop.
    change_user(world.engine, world.users["olga"], roles=[Role.ACCESS_MONITORING])
    assert (await anonymous.get("/api/sensors", headers=bearer(value))).status_code == 401


async def test_a_token_dies_with_its_user(
    client: httpx.AsyncClient,
    anonymous: httpx.AsyncClient,
    world: World,
    estate: Estate,
    sign_in: SignIn,
) -> None:
    for key in ("paul", "quinn"):
        world.add_user(key, "acme", roles=(Role.MANAGE_USERS,))
    await sign_in("paul")
    paul = (await create(client, ("services",)))["token"]
    await sign_in("quinn")
    quinn = (await create(client, ("services",)))["token"]
    change_user(world.engine, world.users["paul"], is_active=False)
    assert (await anonymous.get("/api/services", headers=bearer(paul))).status_code == 401
    with Session(world.engine) as session:
        session.delete(session.get_one(User, world.users["quinn"]))
        session.commit()
    assert (await anonymous.get("/api/services", headers=bearer(quinn))).status_code == 401


async def test_the_terms_of_use_hold_a_token_as_a_session(
    client: httpx.AsyncClient,
    anonymous: httpx.AsyncClient,
    world: World,
    estate: Estate,
    sign_in: SignIn,
) -> None:
    world.add_user("rosa", "acme", roles=(Role.MANAGE_USERS,))
    await sign_in("rosa")
    value = (await create(client, ("services",)))["token"]
    change_user(world.engine, world.users["rosa"], has_accepted_terms=False)
    response = await anonymous.get("/api/services", headers=bearer(value))
    assert response.status_code == 403
    assert response.json()["code"] == "required_terms"


async def test_each_token_is_rate_limited_with_retry_after(
    client: httpx.AsyncClient,
    anonymous: httpx.AsyncClient,
    world: World,
    estate: Estate,
    sign_in: SignIn,
) -> None:
    await sign_in("nina")
    first, second = (await create(client))["token"], (await create(client))["token"]
    with overridden(api_token_rate_limit=3):
        statuses = [
            (await anonymous.get("/api/service_types", headers=bearer(first))).status_code
            for _ in range(4)
        ]
        assert statuses == [200, 200, 200, 429]
        refused = await anonymous.get("/api/service_types", headers=bearer(first))
        assert refused.status_code == 429
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        # Another token has its own count.
        other = await anonymous.get("/api/service_types", headers=bearer(second))
        assert other.status_code == 200


async def test_last_use_is_noted_at_most_once_a_minute_and_calls_are_counted(
    client: httpx.AsyncClient,
    anonymous: httpx.AsyncClient,
    world: World,
    estate: Estate,
    sign_in: SignIn,
) -> None:
    await sign_in("nina")
    created = await create(client, ("services",))
    labels = {"kind": "personal", "route": "/api/service_types", "status": "200"}
    before = sample("patchbay_api_token_requests_total", **labels)
    refused = {"kind": "personal", "route": "/api/invoices", "status": "403"}
    refused_before = sample("patchbay_api_token_requests_total", **refused)
    invalid = {"kind": "invalid", "route": "/api/service_types", "status": "401"}
    invalid_before = sample("patchbay_api_token_requests_total", **invalid)

    await anonymous.get("/api/service_types", headers=bearer(created["token"]))
    first_use = stored(world.engine, created["id"]).last_used_at
    assert first_use is not None
    await anonymous.get("/api/service_types", headers=bearer(created["token"]))
    assert stored(world.engine, created["id"]).last_used_at == first_use
    set_token(world.engine, created["id"], last_used_at=utcnow() - timedelta(minutes=2))
    await anonymous.get("/api/service_types", headers=bearer(created["token"]))
    assert stored(world.engine, created["id"]).last_used_at > first_use
    await anonymous.get("/api/invoices", headers=bearer(created["token"]))
    await anonymous.get("/api/service_types", headers=bearer("pbt_nothing"))

    assert sample("patchbay_api_token_requests_total", **labels) == before + 3
    assert sample("patchbay_api_token_requests_total", **refused) == refused_before + 1
    assert sample("patchbay_api_token_requests_total", **invalid) == invalid_before + 1


async def test_the_customer_document_holds_the_token_reads_alone(
    client: httpx.AsyncClient,
) -> None:
    answer = await client.get("/customer-api/openapi.json")
    assert answer.status_code == 200
    document = answer.json()
    opened = {route for routes in READ_ROUTES.values() for route in routes}
    assert set(document["paths"]) == opened
    for item in document["paths"].values():
        assert list(item) == ["get"]
        assert item["get"]["security"] == [{"personalToken": []}]
    assert list(document["components"]["securitySchemes"]) == ["personalToken"]
    # Every schema it names is in it, and none of the rest of the API.
    text = answer.text
    named = set(re.findall(r'"\$ref":\s*"#/components/schemas/([^"]+)"', text))
    assert named == set(document["components"]["schemas"])
    for foreign in ("UserOut", "TokenIn", "PersonalTokenIn", "AuditEntryOut"):
        assert foreign not in document["components"]["schemas"]


async def test_the_customer_reference_page_loads_nothing_from_another_host(
    client: httpx.AsyncClient,
) -> None:
    page = await client.get("/customer-api")
    assert page.status_code == 200
    html = page.text
    assert re.findall(r"(?:https?:)?//[\w.-]+", html) == []
    addresses = re.findall(r"""(?:src|href)="([^"]+)"|url: '([^']+)'""", html)
    paths = sorted(filter(None, (a or b for a, b in addresses)))
    assert paths == [
        "/provider/customer-api/openapi.json",
        "/provider/docs/assets/favicon-32x32.png",
        "/provider/docs/assets/swagger-ui-bundle.js",
        "/provider/docs/assets/swagger-ui.css",
    ]
    policy = page.headers["content-security-policy"]
    assert "default-src 'none'" in policy
    assert "http" not in policy
