"""Request bodies of the endpoints that write, built from the data set: ``request_body`` gives
the one an ``Endpoint.body`` names, to the run and to the round-trip test alike."""

import csv
import io
import json
import uuid
from datetime import UTC, datetime, timedelta

import psycopg

from portal.client_references import IMPORT_HEADER
from portal.provider.demo_data.people import DEMO_PASSWORD

IMPORT_ROWS = 10_000


class Body:
    def __init__(self, content: bytes, content_type: str, rows: int | None = None) -> None:
        self.content = content
        self.content_type = content_type
        self.rows = rows


def login_body(email: str) -> Body:
    content = json.dumps({"username": email, "password": DEMO_PASSWORD}).encode()
    return Body(content, "application/json")


def sso_lookup_body(email: str) -> Body:
    """The login page's first step: does single sign-on cover this e-mail's domain?"""
    return Body(json.dumps({"email": email}).encode(), "application/json")


def token_body() -> Body:
    """A personal API token reading services for a month (``Endpoint.token``)."""
    expires = datetime.now(UTC) + timedelta(days=30)
    scopes = {"name": "bench", "scopes": ["services"], "expiresAt": expires.isoformat()}
    return Body(json.dumps(scopes).encode(), "application/json")


def import_body(connection: psycopg.Connection, email: str) -> Body:
    """A CSV of the user's first 10 000 services with new client references, as multipart."""
    references = connection.execute(
        "SELECT s.reference FROM services s JOIN users u ON u.company_id = s.company_id"
        " WHERE u.email = %s ORDER BY s.reference LIMIT %s",
        (email, IMPORT_ROWS),
    ).fetchall()
    # The import template's format: UTF-8 with a BOM, ``;``-separated (DESIGN 6).
    text = io.StringIO()
    writer = csv.writer(text, delimiter=";", lineterminator="\r\n")
    writer.writerow(IMPORT_HEADER)
    writer.writerows((reference, f"BENCH-{n:05d}") for n, (reference,) in enumerate(references))
    content = ("\ufeff" + text.getvalue()).encode()
    boundary = uuid.UUID(int=len(content)).hex
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
        'filename="client-reference.csv"\r\nContent-Type: text/csv\r\n\r\n'
    )
    multipart = head.encode() + content + f"\r\n--{boundary}--\r\n".encode()
    return Body(multipart, f"multipart/form-data; boundary={boundary}", rows=len(references))


def open_ticket_body(connection: psycopg.Connection, email: str) -> Body:
    """A new ticket on the user's first service (issue 49)."""
    service = connection.execute(
        "SELECT s.id FROM services s JOIN users u ON u.company_id = s.company_id"
        " WHERE u.email = %s ORDER BY s.reference LIMIT 1",
        (email,),
    ).fetchone()
    body = {
        "subject": "Loss of light since 09:40",
        "description": "No light on the **A-end** since 09:40; the CPE was restarted.",
        "type": "incident",
        "priority": "high",
        "service": f"/api/services/{service[0]}" if service else None,
    }
    return Body(json.dumps(body).encode(), "application/json")


def webhook_body() -> Body:
    """A webhook endpoint for maintenances (issue 51), on a public address literal: checked as
    any URL, and no resolver is asked."""
    body = {
        "url": "https://93.184.215.14/patchbay",
        "description": "bench",
        "eventTypes": ["maintenance.scheduled", "maintenance.updated", "maintenance.cancelled"],
    }
    return Body(json.dumps(body).encode(), "application/json")


def reply_body() -> Body:
    """A customer's reply in a ticket's conversation (issue 49)."""
    body = {"body": "The CPE was swapped at **10:15**; the light is back. Please confirm."}
    return Body(json.dumps(body).encode(), "application/json")


def webhook_change_body() -> Body:
    """A webhook endpoint's description and events changed (issue 51); the URL kept, so no
    address is checked again."""
    body = {"description": "bench, changed", "eventTypes": ["maintenance.scheduled"]}
    return Body(json.dumps(body).encode(), "application/json")


def request_body(name: str | None, email: str, database_url: str) -> Body | None:
    """The body ``name`` (``Endpoint.body``) for the user ``email``, on the data set of
    ``database_url`` (a psycopg URL)."""
    if name is None:
        return None
    if name in ("import", "open_ticket"):
        read = import_body if name == "import" else open_ticket_body
        with psycopg.connect(database_url) as connection:
            return read(connection, email)
    bodies = {
        "login": lambda: login_body(email),
        "sso_lookup": lambda: sso_lookup_body(email),
        "token": token_body,
        "webhook": webhook_body,
        "webhook_change": webhook_change_body,
        "reply": reply_body,
    }
    return bodies[name]()
