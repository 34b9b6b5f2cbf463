"""What the integration API's tests share: an administrator's token, a batch sender, and the
rows the batches refer to."""

from typing import Any

import httpx
import sqlalchemy as sa
from sqlmodel import Session

from portal.provider.integration.kinds import SCOPES
from portal.provider.platform.api_tokens import issue_token
from portal.provider.platform.models import ServiceType, User
from tests.provider.conftest import World

# The smallest file every PDF check accepts.
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def token_headers(
    world: World, user: str = "admin", scopes: tuple[str, ...] = SCOPES, name: str = "tests"
) -> dict[str, str]:
    """A fresh API token of the world's administrator (for every kind unless ``scopes`` says),
    as request headers."""
    with Session(world.engine) as session:
        owner = session.get_one(User, world.users[user])
        _, value = issue_token(session, owner, name, scopes)
        session.commit()
    return {"Authorization": f"Bearer {value}"}


async def put(
    client: httpx.AsyncClient, kind: str, body: Any, headers: dict[str, str]
) -> httpx.Response:
    return await client.put(f"/api/integration/{kind}", json=body, headers=headers)


async def counts(
    client: httpx.AsyncClient, kind: str, body: Any, headers: dict[str, str]
) -> tuple[int, int, int]:
    """Send a batch that must pass; answers (created, updated, unchanged)."""
    response = await put(client, kind, body, headers)
    assert response.status_code == 200, response.text
    result = response.json()
    assert result["kind"] == kind
    assert result["received"] == len(body)
    return result["created"], result["updated"], result["unchanged"]


def violations(response: httpx.Response) -> list[str]:
    assert response.status_code == 422, response.text
    return [violation["propertyPath"] for violation in response.json()["violations"]]


def add_service_type(engine: sa.Engine, key: str = "ip_transit") -> None:
    with Session(engine) as session:
        session.add(ServiceType(key=key, label_en="IP transit", label_fr="Transit IP"))
        session.commit()
