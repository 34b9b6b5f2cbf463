"""Maintenance notices (issue 50, items 1, 2 and 7): a maintenance scheduled, changed,
cancelled, started or completed through the integration API is told by e-mail to the users of
each company whose services it touches who take maintenance notices, and to the company's
confirmed extra addresses, each in their language, once per change; changes within the delay
go out as one notice of the latest state. Every mail passes through a real SMTP server
(aiosmtpd), and its maintnote part is read back by ``vobject``, a parser that did not write it."""

import re
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest
import sqlalchemy as sa
import vobject
from fastapi import FastAPI
from sqlmodel import Session, col, select

from portal.provider.platform.mail import wait_for_deliveries
from portal.provider.platform.mail.notices import send_due_notices
from portal.provider.platform.mail.outbox import deliver_due
from portal.provider.platform.models import (
    Maintenance,
    MaintenanceNotice,
    MaintenanceNotices,
    NoticeAddress,
    User,
    utcnow,
)
from portal.settings import get_settings
from tests.provider.conftest import World
from tests.provider.integration_helpers import add_service_type, counts, token_headers
from tests.provider.mailbox import Sink, body
from tests.provider.notice_helpers import links_portal, notice_sink

__all__ = ["links_portal", "notice_sink"]

START = (datetime.now(UTC) + timedelta(days=7)).replace(hour=1, minute=0, second=0, microsecond=0)
# Every recipient of a notice to Acme, Benelux and Globex (bob takes none, gone is inactive,
# pending@ is not confirmed).
ACME = {
    "alice@acme-networks.test",
    "helene@example.test",
    "newbie@example.test",
    "noc@acme-networks.test",
}
BENELUX = {"alice@acme-networks.test", "bram@example.test"}
GLOBEX = {"claire@example.test"}
ONE_CLICK = {"List-Unsubscribe": "One-Click"}


def _maintenance(reference: str, services: list[str], **fields: Any) -> dict[str, Any]:
    return {
        "reference": reference,
        "name": f"Line card replacement {reference}",
        "type": "preventive",
        "classification": "outage",
        "status": "scheduled",
        "dateStart": START.isoformat(),
        "dateEnd": (START + timedelta(hours=4)).isoformat(),
        "services": services,
        **fields,
    }


@pytest.fixture(scope="module")
def headers(world: World) -> dict[str, str]:
    return token_headers(world)


@pytest.fixture
async def estate(client: httpx.AsyncClient, world: World, headers: dict[str, str]) -> None:
    """Services of the three companies, languages and choices of their users, Acme's NOC."""
    with Session(world.engine) as session:
        if session.exec(select(NoticeAddress)).first():
            return
    add_service_type(world.engine)
    companies = [
        {"reference": "C-ACME", "name": "Acme Networks"},
        {"reference": "C-BENELUX", "name": "Acme Networks Benelux"},
        {"reference": "C-GLOBEX", "name": "Globex"},
    ]
    await counts(client, "companies", companies, headers)
    services = [
        {"reference": ref, "company": company, "type": "ip_transit", "status": "active", **more}
        for ref, company, more in (
            ("PB-A1", "C-ACME", {"clientReferences": ["ACME-CORE-1"]}),
            ("PB-A2", "C-ACME", {}),
            ("PB-B1", "C-BENELUX", {}),
            ("PB-G1", "C-GLOBEX", {}),
        )
    ]
    await counts(client, "services", services, headers)
    with Session(world.engine) as session:
        claire = session.get_one(User, world.users["claire"])
        claire.language, claire.time_zone = "fr", "Europe/Paris"
        bob = session.get_one(User, world.users["bob"])
        bob.maintenance_notices = MaintenanceNotices.NONE
        session.add_all(
            [
                claire,
                bob,
                NoticeAddress(
                    company_id=world.companies["acme"],
                    email="noc@acme-networks.test",
                    language="fr",
                    time_zone="Europe/Brussels",
                    confirmed_at=utcnow(),
                ),
                NoticeAddress(
                    company_id=world.companies["acme"], email="pending@acme-networks.test"
                ),
            ]
        )
        session.commit()


@pytest.fixture
def sink(notice_sink: Sink, estate: None) -> Sink:
    """A real SMTP server that every mail of the test goes to."""
    return notice_sink


def _deliver(engine: sa.Engine, sink: Sink) -> dict[str, EmailMessage]:
    """Everything due after the delay, sent; the mails received since the last call, by
    recipient (each recipient exactly once)."""
    later = utcnow() + timedelta(seconds=get_settings().maintenance_notice_delay_seconds + 1)
    send_due_notices(engine, now=later)
    wait_for_deliveries()
    deliver_due(engine)
    received = [(to, message) for to, message in sink.messages]
    sink.messages.clear()
    found: dict[str, EmailMessage] = {}
    for recipients, message in received:
        [recipient] = recipients
        assert recipient not in found, f"two notices to {recipient}"
        found[recipient] = message
    return found


def _calendar_part(message: EmailMessage) -> EmailMessage:
    parts = [part for part in message.walk() if part.get_content_type() == "text/calendar"]
    assert len(parts) == 1
    [part] = parts
    assert part.get_param("method") == "PUBLISH"
    assert isinstance(part, EmailMessage)
    return part


# RFC 5545 3.1: a content line's name, its parameters, a colon and its value.
_CONTENT_LINE = re.compile(
    r'^[A-Z0-9-]+(;[A-Z0-9-]+=("[^"]*"|[^";:,]*)(,("[^"]*"|[^";:,]*))*)*:.*$'
)


def _event(message: EmailMessage) -> Any:
    """The one VEVENT of the maintnote part, as ``vobject`` reads it, once its lines are
    checked against RFC 5545 3.1: CRLF ends, at most 75 octets, continuations after a space."""
    raw = _calendar_part(message).get_payload(decode=True)
    assert isinstance(raw, bytes)
    assert raw.endswith(b"\r\n")
    lines = raw.split(b"\r\n")[:-1]
    assert all(len(line) <= 75 and b"\n" not in line for line in lines)
    for line in raw.replace(b"\r\n ", b"").decode().split("\r\n")[:-1]:
        assert _CONTENT_LINE.match(line), line
    calendar = vobject.readOne(raw.decode())
    assert calendar.method.value == "PUBLISH"
    assert calendar.version.value == "2.0"
    [event] = calendar.vevent_list
    return event


def _one(event: Any, name: str) -> str:
    values = event.contents.get(name.lower(), [])
    assert len(values) == 1, f"{name}: {values}"
    return str(values[0].value)


def _objects(event: Any) -> dict[str, list[str]]:
    return {
        str(item.value): list(item.params.get("X-CLIENT-REFERENCE", []))
        for item in event.contents.get("x-maintnote-object-id", [])
    }


def _stored(engine: sa.Engine, reference: str) -> Maintenance:
    with Session(engine) as session:
        return session.exec(select(Maintenance).where(Maintenance.reference == reference)).one()


async def test_a_scheduled_maintenance_is_told_to_each_recipient_once_in_their_language(
    client: httpx.AsyncClient, engine: sa.Engine, sink: Sink, headers: dict[str, str]
) -> None:
    await counts(client, "maintenances", [_maintenance("MNT-1", ["PB-A1", "PB-G1"])], headers)
    # Nothing leaves before the delay: a correction made meanwhile goes out in the same notice.
    send_due_notices(engine)
    wait_for_deliveries()
    assert sink.messages == []
    mails = _deliver(engine, sink)
    assert set(mails) == ACME | GLOBEX

    stored = _stored(engine, "MNT-1")
    for recipient, message in mails.items():
        event = _event(message)
        assert _one(event, "UID") == f"{stored.id}@patchbay.test"
        assert _one(event, "SEQUENCE") == "0"
        assert event.dtstart.value == START
        assert event.dtend.value == START + timedelta(hours=4)
        assert "MNT-1" in _one(event, "SUMMARY")
        assert _one(event, "STATUS") == "CONFIRMED"
        assert _one(event, "X-MAINTNOTE-PROVIDER") == "patchbay.test"
        assert _one(event, "X-MAINTNOTE-MAINTENANCE-ID") == "MNT-1"
        assert _one(event, "X-MAINTNOTE-IMPACT") == "OUTAGE"
        assert _one(event, "X-MAINTNOTE-STATUS") == "CONFIRMED"
        # A company sees its own services only, under its own account.
        if recipient in GLOBEX:
            assert _one(event, "X-MAINTNOTE-ACCOUNT") == "C-GLOBEX"
            assert _objects(event) == {"PB-G1": []}
            assert "PB-A1" not in message.as_string()
        else:
            assert _one(event, "X-MAINTNOTE-ACCOUNT") == "C-ACME"
            assert _objects(event) == {"PB-A1": ["ACME-CORE-1"]}
            assert "PB-G1" not in message.as_string()

    english, french = mails["alice@acme-networks.test"], mails["claire@example.test"]
    assert english["Subject"] == (
        "[Patchbay] Maintenance scheduled: MNT-1 · Line card replacement MNT-1"
    )
    assert french["Subject"].startswith("[Patchbay] Maintenance planifiée : MNT-1")
    assert english["Content-Language"] == "en"
    assert french["Content-Language"] == "fr"
    assert mails["noc@acme-networks.test"]["Content-Language"] == "fr"


async def test_a_notice_is_a_well_formed_mail_with_times_on_the_recipients_clock(
    client: httpx.AsyncClient, engine: sa.Engine, sink: Sink, headers: dict[str, str]
) -> None:
    await counts(client, "maintenances", [_maintenance("MNT-2", ["PB-G1"])], headers)
    [message] = _deliver(engine, sink).values()
    for header in ("Message-ID", "Date", "From", "To", "Subject"):
        assert message[header], header
    assert message["Auto-Submitted"] == "auto-generated"
    assert message["Message-ID"].endswith("@patchbay.test>")
    text, html = body(message, "plain"), body(message, "html")
    # Claire's clock is Paris's, with the UTC time beside it.
    paris = START.astimezone(ZoneInfo("Europe/Paris"))
    assert f"{paris:%H:%M} (Europe/Paris), " in text
    assert f"{START:%H:%M} UTC" in text
    assert "Bonjour Claire Test," in text
    assert "Transit IP" in text  # the service type in her language
    assert "http://localhost:3000/maintenances" in text
    # HTML without any remote (or other) image, every value escaped.
    assert "<img" not in html.lower()
    assert "url(" not in html.lower()
    assert "PB-G1" in html


async def test_changes_within_the_delay_go_out_as_one_notice_of_the_latest_state(
    client: httpx.AsyncClient, engine: sa.Engine, sink: Sink, headers: dict[str, str]
) -> None:
    await counts(client, "maintenances", [_maintenance("MNT-3", ["PB-G1"])], headers)
    first = _event(_deliver(engine, sink)["claire@example.test"])
    later = START + timedelta(days=1)
    moved = _maintenance(
        "MNT-3",
        ["PB-G1"],
        dateStart=later.isoformat(),
        dateEnd=(later + timedelta(hours=4)).isoformat(),
        classification="degraded",
    )
    await counts(client, "maintenances", [moved], headers)
    moved["dateEnd"] = (later + timedelta(hours=6)).isoformat()
    await counts(client, "maintenances", [moved], headers)
    mails = _deliver(engine, sink)
    assert set(mails) == GLOBEX
    message = mails["claire@example.test"]
    assert message["Subject"].startswith("[Patchbay] Maintenance modifiée : MNT-3")
    event = _event(message)
    assert event.dtstart.value == later
    assert event.dtend.value == later + timedelta(hours=6)
    assert _one(event, "X-MAINTNOTE-IMPACT") == "DEGRADED"
    assert int(_one(event, "SEQUENCE")) > int(_one(first, "SEQUENCE"))
    assert _one(event, "UID") == _one(first, "UID")
    # The same batch again changes nothing, and tells nobody.
    await counts(client, "maintenances", [moved], headers)
    assert _deliver(engine, sink) == {}


async def test_started_completed_and_cancelled_maintenances_are_told(
    client: httpx.AsyncClient, engine: sa.Engine, sink: Sink, headers: dict[str, str]
) -> None:
    await counts(client, "maintenances", [_maintenance("MNT-4", ["PB-A2"])], headers)
    sequences = [int(_one(_event(_deliver(engine, sink)["helene@example.test"]), "SEQUENCE"))]
    for status, maintnote, subject in (
        ("ongoing", "IN-PROCESS", "Maintenance started"),
        ("completed", "COMPLETED", "Maintenance completed"),
    ):
        await counts(
            client, "maintenances", [_maintenance("MNT-4", ["PB-A2"], status=status)], headers
        )
        mails = _deliver(engine, sink)
        assert set(mails) == ACME
        message = mails["helene@example.test"]
        assert message["Subject"].startswith(f"[Patchbay] {subject}: MNT-4")
        event = _event(message)
        assert _one(event, "X-MAINTNOTE-STATUS") == maintnote
        assert _objects(event) == {"PB-A2": []}
        sequences.append(int(_one(event, "SEQUENCE")))

    await counts(client, "maintenances", [_maintenance("MNT-5", ["PB-A2"])], headers)
    sequences = [int(_one(_event(_deliver(engine, sink)["helene@example.test"]), "SEQUENCE"))]
    await counts(
        client, "maintenances", [_maintenance("MNT-5", ["PB-A2"], status="cancelled")], headers
    )
    mails = _deliver(engine, sink)
    assert set(mails) == ACME
    message = mails["helene@example.test"]
    assert message["Subject"].startswith("[Patchbay] Maintenance cancelled: MNT-5")
    event = _event(message)
    assert _one(event, "STATUS") == "CANCELLED"
    assert _one(event, "X-MAINTNOTE-STATUS") == "CANCELLED"
    assert int(_one(event, "SEQUENCE")) > sequences[0]


async def test_services_moved_in_and_out_tell_each_company_its_own_news(
    client: httpx.AsyncClient, engine: sa.Engine, sink: Sink, headers: dict[str, str]
) -> None:
    await counts(client, "maintenances", [_maintenance("MNT-6", ["PB-A1", "PB-G1"])], headers)
    _deliver(engine, sink)
    # Globex's service leaves the maintenance, Benelux's joins it; Acme's stay as they were.
    await counts(client, "maintenances", [_maintenance("MNT-6", ["PB-A1", "PB-B1"])], headers)
    mails = _deliver(engine, sink)
    assert set(mails) == BENELUX | GLOBEX
    cancelled = _event(mails["claire@example.test"])
    assert _one(cancelled, "X-MAINTNOTE-STATUS") == "CANCELLED"
    assert _objects(cancelled) == {}
    assert "Maintenance annulée" in mails["claire@example.test"]["Subject"]
    # Alice hears of it for Benelux, her other company, with Benelux's service only.
    joined = _event(mails["alice@acme-networks.test"])
    assert _one(joined, "X-MAINTNOTE-ACCOUNT") == "C-BENELUX"
    assert _objects(joined) == {"PB-B1": []}
    assert mails["bram@example.test"]["Subject"].startswith("[Patchbay] Maintenance scheduled")


async def test_a_maintenance_cancelled_before_its_first_notice_tells_nobody(
    client: httpx.AsyncClient, engine: sa.Engine, sink: Sink, headers: dict[str, str]
) -> None:
    await counts(client, "maintenances", [_maintenance("MNT-7", ["PB-G1"])], headers)
    await counts(
        client, "maintenances", [_maintenance("MNT-7", ["PB-G1"], status="cancelled")], headers
    )
    assert _deliver(engine, sink) == {}


async def test_a_past_maintenance_loaded_tells_nobody(
    client: httpx.AsyncClient, engine: sa.Engine, sink: Sink, headers: dict[str, str]
) -> None:
    past = START - timedelta(days=60)
    batch = [
        _maintenance("MNT-OLD-1", ["PB-G1"], status="completed"),
        _maintenance(
            "MNT-OLD-2",
            ["PB-G1"],
            dateStart=past.isoformat(),
            dateEnd=(past + timedelta(hours=2)).isoformat(),
        ),
    ]
    await counts(client, "maintenances", batch, headers)
    with Session(engine) as session:
        assert session.exec(select(MaintenanceNotice)).all() == []
    assert _deliver(engine, sink) == {}


async def test_a_recipient_who_stops_taking_notices_before_delivery_gets_none(
    client: httpx.AsyncClient, world: World, engine: sa.Engine, sink: Sink, headers: dict[str, str]
) -> None:
    await counts(client, "maintenances", [_maintenance("MNT-8", ["PB-G1"])], headers)
    with Session(engine) as session:
        claire = session.get_one(User, world.users["claire"])
        claire.maintenance_notices = MaintenanceNotices.NONE
        session.add(claire)
        session.commit()
    try:
        assert _deliver(engine, sink) == {}
    finally:
        with Session(engine) as session:
            claire = session.get_one(User, world.users["claire"])
            claire.maintenance_notices = MaintenanceNotices.ALL
            session.add(claire)
            session.commit()
    with Session(engine) as session:
        waiting = session.exec(
            select(MaintenanceNotice).where(col(MaintenanceNotice.user_id).isnot(None))
        ).all()
    assert waiting == []


def _unsubscribe_link(message: EmailMessage) -> str:
    """The one-click link of a notice: in List-Unsubscribe (RFC 8058) and in the text."""
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    found = re.fullmatch(
        r"<(http://localhost:3000/unsubscribe/[\w.-]+)>", message["List-Unsubscribe"]
    )
    assert found, message["List-Unsubscribe"]
    link = found.group(1)
    assert link in body(message, "plain")
    assert link in body(message, "html")
    return link


def _preferences_link_in(message: EmailMessage) -> bool:
    """Whether the foot of both parts links to the Notifications page."""
    page = "http://localhost:3000/account/notifications"
    in_text, in_html = page in body(message, "plain"), f'href="{page}"' in body(message, "html")
    assert in_text == in_html
    return in_text


async def test_one_click_unsubscribes_a_user_and_removes_an_extra_address(
    client: httpx.AsyncClient,
    engine: sa.Engine,
    sink: Sink,
    headers: dict[str, str],
    world: World,
    links_portal: FastAPI,
) -> None:
    await counts(client, "maintenances", [_maintenance("MNT-9", ["PB-A2"])], headers)
    mails = _deliver(engine, sink)
    helene, noc = (
        _unsubscribe_link(mails[r]) for r in ("helene@example.test", "noc@acme-networks.test")
    )
    assert helene != noc
    # A user's notice also links to their preferences; an extra address logs in nowhere.
    assert _preferences_link_in(mails["helene@example.test"])
    assert not _preferences_link_in(mails["noc@acme-networks.test"])
    portal = httpx.AsyncClient(
        transport=httpx.ASGITransport(links_portal), base_url="http://localhost:3000"
    )
    try:
        # Opening the link changes nothing (link checkers open every link): a page asks.
        page = await portal.get(helene, headers={"Accept-Language": "fr"})
        assert page.status_code == 200
        assert "Arrêter les avis" in page.text
        # A forged or altered token stops nothing.
        forged = helene[:-3] + ("AAA" if not helene.endswith("AAA") else "BBB")
        assert (await portal.post(forged, data=ONE_CLICK)).status_code == 404
        other = helene.replace(helene.split("/")[-1].split(".")[1], world.users["claire"].hex)
        assert (await portal.post(other, data=ONE_CLICK)).status_code == 404
        # What a mail program sends (RFC 8058): a POST without any session.
        for link in (helene, noc):
            done = await portal.post(link, data=ONE_CLICK)
            assert done.status_code == 200, done.text
            assert "no more maintenance notices" in done.text
        assert (await portal.post(noc, data=ONE_CLICK)).status_code == 404  # the address is gone
    finally:
        await portal.aclose()
    with Session(engine) as session:
        user = session.get_one(User, world.users["helene"])
        assert user.maintenance_notices is MaintenanceNotices.NONE
        addresses = session.exec(select(NoticeAddress.email)).all()
        assert addresses == ["pending@acme-networks.test"]
        user.maintenance_notices = MaintenanceNotices.ALL
        session.add(user)
        session.add(
            NoticeAddress(
                company_id=world.companies["acme"],
                email="noc@acme-networks.test",
                language="fr",
                time_zone="Europe/Brussels",
                confirmed_at=utcnow(),
            )
        )
        session.commit()


async def test_the_provider_route_needs_a_genuine_token(client: httpx.AsyncClient) -> None:
    for token in ("user.x.y", f"user.{'0' * 32}.AAAAAAAAAAAAAAAAAAAAAA", "nothing"):
        assert (await client.post(f"/notices/unsubscribe/{token}")).status_code == 404
