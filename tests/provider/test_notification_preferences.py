"""A user's notification preferences (issue 50, item 4): their own only, behind a session; the
defaults a NOC expects; the language and time zone of the e-mails the browser's at each login
until the user chooses them."""

import httpx
import pytest
from sqlmodel import Session

from portal.provider.platform.models import User
from tests.provider.conftest import PASSWORD, SignIn, World

PREFERENCES = "/api/notification_preferences"


@pytest.fixture(autouse=True)
def fresh_preferences(world: World) -> None:
    with Session(world.engine) as session:
        for key in ("alice", "bob"):
            user = session.get_one(User, world.users[key])
            user.language, user.time_zone = "en", "UTC"
            user.language_chosen = user.time_zone_chosen = False
            session.add(user)
        session.commit()


async def test_preferences_need_a_session(client: httpx.AsyncClient) -> None:
    assert (await client.get(PREFERENCES)).status_code == 401
    assert (await client.patch(PREFERENCES, json={"ticketNotices": "none"})).status_code == 401


async def test_the_defaults_and_the_browsers_language_and_zone_at_sign_in(
    client: httpx.AsyncClient, world: World
) -> None:
    body = {"username": world.email("bob"), "password": PASSWORD, "timeZone": "Europe/Paris"}
    response = await client.post("/login", json=body, headers={"Accept-Language": "fr-FR"})
    assert response.status_code == 204, response.text
    assert (await client.get(PREFERENCES)).json() == {
        "@type": "NotificationPreferences",
        "maintenanceNotices": "all",
        "ticketNotices": "opened",
        "language": "fr",
        "timeZone": "Europe/Paris",
        "languageChosen": False,
        "timeZoneChosen": False,
    }


async def test_a_choice_is_kept_and_outlives_the_next_sign_in(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("alice")
    choice = {
        "maintenanceNotices": "none",
        "ticketNotices": "all",
        "language": "fr",
        "timeZone": "America/New_York",
    }
    response = await client.patch(PREFERENCES, json=choice)
    assert response.status_code == 200, response.text
    assert response.json() | choice == response.json()
    assert response.json()["languageChosen"] is True
    # A login from an English browser in Paris changes neither.
    body = {"username": world.email("alice"), "password": PASSWORD, "timeZone": "Europe/Paris"}
    await client.post("/login", json=body, headers={"Accept-Language": "en"})
    after = (await client.get(PREFERENCES)).json()
    assert (after["language"], after["timeZone"]) == ("fr", "America/New_York")
    # A field left out stays; another user's preferences are untouched.
    await client.patch(PREFERENCES, json={"ticketNotices": "none"})
    assert (await client.get(PREFERENCES)).json()["maintenanceNotices"] == "none"
    with Session(world.engine) as session:
        bob = session.get_one(User, world.users["bob"])
        assert (bob.maintenance_notices, bob.ticket_notices) == ("all", "opened")


async def test_what_is_not_a_preference_is_refused_with_its_field(
    client: httpx.AsyncClient, sign_in: SignIn
) -> None:
    await sign_in("alice")
    for body, field in (
        ({"timeZone": "Mars/Olympus"}, "timeZone"),
        ({"maintenanceNotices": "some"}, "maintenanceNotices"),
        ({"language": "de"}, "language"),
    ):
        response = await client.patch(PREFERENCES, json=body)
        assert response.status_code == 422, response.text
        assert [v["propertyPath"] for v in response.json()["violations"]] == [field]
    assert (await client.get(PREFERENCES)).json()["timeZone"] == "UTC"
