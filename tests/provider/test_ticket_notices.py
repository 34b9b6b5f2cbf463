"""Ticket e-mails through each user's preferences (issue 50, item 3): who of a ticket's company
hears of a helpdesk reply for each choice of ticket updates, in which language and wording, the
one-click unsubscribe (RFC 8058) that stops them without logging in, and another company's users
never told. A real SMTP server (aiosmtpd) receives every mail."""

import itertools
import re
from email.message import EmailMessage

import httpx
import pytest
from fastapi import FastAPI
from sqlmodel import Session, select

from portal.permissions import Role
from portal.provider.platform.mail import wait_for_deliveries
from portal.provider.platform.models import (
    MaintenanceNotices,
    Ticket,
    TicketNotices,
    TicketPriority,
    TicketStatus,
    User,
)
from portal.provider.platform.notice_links import signed_token
from portal.settings import get_settings
from tests.provider.conftest import World
from tests.provider.integration_helpers import counts, token_headers
from tests.provider.mailbox import Sink, body
from tests.provider.notice_helpers import links_portal, notice_sink

__all__ = ["links_portal", "notice_sink"]

pytestmark = pytest.mark.usefixtures("fresh_rate_limits")

ONE_CLICK = {"List-Unsubscribe": "One-Click"}
OPENED, ALL, NONE = TicketNotices.OPENED, TicketNotices.ALL, TicketNotices.NONE
_numbers = itertools.count(8001)


@pytest.fixture(scope="module")
def helpdesk(world: World) -> dict[str, str]:
    """The helpdesk's token, and the users these tests need beyond the world's: a French user
    of Acme, a stored contact of Acme without a role."""
    world.add_user("noemie", "acme", roles=(Role.ACCESS_MONITORING,), language="fr")
    world.add_user("contact", "acme")
    return token_headers(world, scopes=("ticket_replies",), name="helpdesk")


def _prefer(world: World, **choices: TicketNotices) -> None:
    """Set the ticket notices of the named users; every other user of the world takes all."""
    with Session(world.engine) as session:
        for key, user_id in world.users.items():
            user = session.get_one(User, user_id)
            user.ticket_notices = choices.get(key, ALL)
            session.add(user)
        session.commit()


def _ticket(world: World, company: str, requester: str) -> str:
    """A helpdesk ticket of ``company`` opened by ``requester``; answers its reference."""
    number = next(_numbers)
    with Session(world.engine) as session:
        session.add(
            Ticket(number=number, reference=f"HD-{number}", company_id=world.companies[company],
                   name=str(number), subject="Loss of light", status=TicketStatus.OPEN,
                   priority=TicketPriority.HIGH, requester_email=world.email(requester))
        )  # fmt: skip
        session.commit()
    return f"HD-{number}"


async def _reply(client: httpx.AsyncClient, headers: dict[str, str], ticket: str) -> None:
    reply = {"reference": f"{ticket}-R{next(_numbers)}", "ticket": ticket, "author": "Ana Silva",
             "body": "We replaced the optic."}  # fmt: skip
    assert await counts(client, "ticket_replies", [reply], headers) == (1, 0, 0)
    wait_for_deliveries()


def _received(sink: Sink) -> dict[str, EmailMessage]:
    mails: dict[str, EmailMessage] = {}
    for recipients, mail in sink.messages:
        [recipient] = recipients
        assert recipient not in mails, f"{recipient} got two e-mails"
        mails[recipient] = mail
    sink.messages.clear()
    return mails


@pytest.mark.parametrize(
    ("requester", "other"), list(itertools.product((OPENED, ALL, NONE), repeat=2))
)
async def test_who_hears_of_a_reply_for_each_choice(
    client: httpx.AsyncClient,
    world: World,
    helpdesk: dict[str, str],
    notice_sink: Sink,
    requester: TicketNotices,
    other: TicketNotices,
) -> None:
    # Everyone else takes every ticket: Bram (Benelux) and Claire (Globex) of other companies,
    # a user gone, a stored contact without a role, staff; none of them may hear of it.
    _prefer(world, bob=requester, helene=other)
    await _reply(client, helpdesk, _ticket(world, "acme", "bob"))
    expected = {"alice", "noemie", "newbie"}
    expected |= {"bob"} if requester in (OPENED, ALL) else set()
    expected |= {"helene"} if other is ALL else set()
    assert set(_received(notice_sink)) == {world.email(key) for key in expected}


async def test_a_user_of_the_ticket_s_other_company_who_takes_all_hears_of_it(
    client: httpx.AsyncClient, world: World, helpdesk: dict[str, str], notice_sink: Sink
) -> None:
    # Alice belongs to Benelux as her other company; Acme's own users never hear of its tickets.
    _prefer(world, alice=ALL, bram=OPENED)
    await _reply(client, helpdesk, _ticket(world, "benelux", "bram"))
    assert set(_received(notice_sink)) == {world.email("alice"), world.email("bram")}
    _prefer(world, alice=OPENED, bram=NONE)
    await _reply(client, helpdesk, _ticket(world, "benelux", "bram"))
    assert _received(notice_sink) == {}


def _unsubscribe_link(mail: EmailMessage) -> str:
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    found = re.fullmatch(r"<(http://localhost:3000/unsubscribe/tickets\.[\w.-]+)>",
                         mail["List-Unsubscribe"])  # fmt: skip
    assert found, mail["List-Unsubscribe"]
    link = found.group(1)
    preferences = "http://localhost:3000/account/notifications"
    for part in (body(mail, "plain"), body(mail, "html")):
        assert link in part
        assert preferences in part  # the foot's link to the Notifications page
    return link


async def test_each_hears_in_their_language_in_words_for_them_threaded_under_the_ticket(
    client: httpx.AsyncClient, world: World, helpdesk: dict[str, str], notice_sink: Sink
) -> None:
    _prefer(world, alice=NONE, newbie=NONE, helene=OPENED)
    reference = _ticket(world, "acme", "bob")
    await _reply(client, helpdesk, reference)
    mails = _received(notice_sink)
    assert set(mails) == {world.email("bob"), world.email("noemie")}
    number = reference.removeprefix("HD-")
    bob, noemie = mails[world.email("bob")], mails[world.email("noemie")]
    assert bob["Subject"] == f"[Ticket #{number}] Loss of light"
    assert f"Ana Silva answered your ticket #{number} “Loss of light”:" in body(bob, "plain")
    assert noemie["Subject"] == f"[Ticket n°{number}] Loss of light"
    assert noemie["Content-Language"] == "fr"
    text = body(noemie, "plain")
    assert f"Ana Silva a répondu au ticket n°{number} « Loss of light » :" in text
    assert "votre ticket" not in text
    assert "Pour ne plus recevoir d'e-mails sur les tickets" in text
    with Session(world.engine) as session:
        ticket_id = session.exec(select(Ticket.id).where(Ticket.reference == reference)).one()
    root = f"<ticket-{ticket_id}@{get_settings().staff_mail_domain}>"
    for mail in (bob, noemie):
        assert (mail["In-Reply-To"], mail["References"]) == (root, root)
        assert mail["Auto-Submitted"] == "auto-generated"
    assert _unsubscribe_link(bob) != _unsubscribe_link(noemie)
    status = {"reference": f"{reference}-S", "ticket": reference, "author": "NOC",
              "status": "restoredService"}  # fmt: skip
    assert await counts(client, "ticket_replies", [status], helpdesk) == (0, 1, 0)
    wait_for_deliveries()
    mails = _received(notice_sink)
    assert f"The status of your ticket #{number}" in body(mails[world.email("bob")], "plain")
    text = body(mails[world.email("noemie")], "plain")
    assert f"Le statut du ticket n°{number} « Loss of light » a changé." in text
    assert "Service rétabli" in text


async def test_the_link_stops_the_ticket_mails_without_signing_in(
    client: httpx.AsyncClient,
    world: World,
    helpdesk: dict[str, str],
    notice_sink: Sink,
    links_portal: FastAPI,
) -> None:
    _prefer(world, alice=NONE, noemie=NONE, newbie=NONE, bob=OPENED)
    reference = _ticket(world, "acme", "bob")
    await _reply(client, helpdesk, reference)
    mails = _received(notice_sink)
    assert set(mails) == {world.email("bob"), world.email("helene")}
    bob, helene = (_unsubscribe_link(mails[world.email(key)]) for key in ("bob", "helene"))
    token = bob.rsplit("/", 1)[1]
    portal = httpx.AsyncClient(
        transport=httpx.ASGITransport(links_portal), base_url="http://localhost:3000"
    )
    try:
        # Opening the link changes nothing: a page asks, saying what it stops.
        page = await portal.get(helene, headers={"Accept-Language": "fr"})
        assert page.status_code == 200
        assert "Arrêter les e-mails des tickets" in page.text
        # The same user as a maintenance notices token, or altered, stops nothing.
        for forged in (bob.replace("/tickets.", "/user."), bob[:-3] + "AAA"):
            assert (await portal.post(forged, data=ONE_CLICK)).status_code == 404
        assert (await client.post(f"/notices/unsubscribe/user.{token[8:]}")).status_code == 404
        # Nor does Bob's maintenance notices token named as a ticket one.
        notices = signed_token("unsubscribe", "user", world.users["bob"]).removeprefix("user.")
        assert (
            await portal.post(f"/unsubscribe/tickets.{notices}", data=ONE_CLICK)
        ).status_code == 404
        # What a mail program sends (RFC 8058): a POST without any session.
        for link in (bob, helene):
            done = await portal.post(link, data=ONE_CLICK)
            assert done.status_code == 200, done.text
            assert "no more e-mails about tickets" in done.text
    finally:
        await portal.aclose()
    with Session(world.engine) as session:
        for key in ("bob", "helene"):
            user = session.get_one(User, world.users[key])
            assert user.ticket_notices is NONE
            assert user.maintenance_notices is MaintenanceNotices.ALL
    # The next reply to Bob's ticket reaches neither of them.
    await _reply(client, helpdesk, reference)
    assert _received(notice_sink) == {}
