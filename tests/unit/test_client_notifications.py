"""The notification calls of the client: the preferences (read, merge-patch) and a company's
extra notice addresses (list, add, remove), as the provider contract spells them."""

import json

import httpx
import pytest

from portal.client import InvalidResponse, ProviderClient, ValidationFailed
from portal.client.models.notifications import PreferencesChange

BASE_URL = "http://provider.test/provider"
PREFERENCES = {
    "@type": "NotificationPreferences",
    "maintenanceNotices": "none",
    "ticketNotices": "all",
    "language": "fr",
    "timeZone": "Europe/Paris",
    "languageChosen": True,
    "timeZoneChosen": False,
}
ADDRESS = {
    "id": "a-1",
    "email": "noc@acme-networks.test",
    "language": "fr",
    "timeZone": "Europe/Paris",
    "createdAt": "2026-12-05T10:00:00Z",
    "confirmedAt": None,
}


def client_answering(requests: list[httpx.Request], response: httpx.Response) -> ProviderClient:
    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return response

    return ProviderClient(BASE_URL, transport=httpx.MockTransport(handler))


async def test_preferences_are_read_from_the_users_own_resource() -> None:
    requests: list[httpx.Request] = []
    async with client_answering(requests, httpx.Response(200, json=PREFERENCES)) as client:
        preferences = await client.notifications.preferences()

    (request,) = requests
    assert (request.method, request.url.path) == ("GET", "/provider/api/notification_preferences")
    assert (preferences.maintenance_notices, preferences.ticket_notices) == ("none", "all")
    assert (preferences.language, preferences.time_zone) == ("fr", "Europe/Paris")
    assert (preferences.language_chosen, preferences.time_zone_chosen) == (True, False)


async def test_a_change_sends_only_its_fields_as_a_merge_patch() -> None:
    requests: list[httpx.Request] = []
    async with client_answering(requests, httpx.Response(200, json=PREFERENCES)) as client:
        change = PreferencesChange(maintenance_notices="none", time_zone="Europe/Paris")
        saved = await client.notifications.update_preferences(change)

    (request,) = requests
    assert (request.method, request.url.path) == ("PATCH", "/provider/api/notification_preferences")
    assert request.headers["Content-Type"] == "application/merge-patch+json"
    assert json.loads(request.content) == {
        "maintenanceNotices": "none",
        "timeZone": "Europe/Paris",
    }
    assert saved.ticket_notices == "all"


async def test_a_refused_time_zone_is_a_violation_on_its_field() -> None:
    answer = httpx.Response(
        422,
        json={
            "detail": "The preferences are not valid: nothing was changed.",
            "violations": [{"propertyPath": "timeZone", "message": "Not a time zone"}],
        },
    )
    async with client_answering([], answer) as client:
        with pytest.raises(ValidationFailed) as raised:
            await client.notifications.update_preferences(PreferencesChange(time_zone="Mars/X"))

    assert raised.value.by_field() == {"timeZone": ["Not a time zone"]}


async def test_a_companys_addresses_are_listed_with_their_confirmation() -> None:
    confirmed = ADDRESS | {
        "id": "a-2",
        "email": "ops@acme.test",
        "confirmedAt": "2026-12-05T11:00:00Z",
    }
    requests: list[httpx.Request] = []
    answer = httpx.Response(200, json=[ADDRESS, confirmed])
    async with client_answering(requests, answer) as client:
        addresses = await client.notifications.addresses("c-1")

    (request,) = requests
    assert (request.method, request.url.path) == (
        "GET",
        "/provider/api/companies/c-1/notice_addresses",
    )
    assert [(a.id, a.email) for a in addresses] == [
        ("a-1", "noc@acme-networks.test"),
        ("a-2", "ops@acme.test"),
    ]
    assert addresses[0].confirmed_at is None
    assert addresses[1].confirmed_at is not None


async def test_an_answer_that_is_not_a_list_of_addresses_is_invalid() -> None:
    answer = httpx.Response(200, json={"hydra:member": [ADDRESS]})
    async with client_answering([], answer) as client:
        with pytest.raises(InvalidResponse):
            await client.notifications.addresses("c-1")


async def test_an_address_is_added_with_its_language_and_zone_then_removed() -> None:
    requests: list[httpx.Request] = []
    async with client_answering(requests, httpx.Response(201, json=ADDRESS)) as client:
        added = await client.notifications.add_address(
            "c-1", "noc@acme-networks.test", "fr", "Europe/Paris"
        )
    async with client_answering(requests, httpx.Response(204)) as client:
        await client.notifications.remove_address("c-1", "a-1")

    adding, removing = requests
    assert (adding.method, adding.url.path) == (
        "POST",
        "/provider/api/companies/c-1/notice_addresses",
    )
    assert json.loads(adding.content) == {
        "email": "noc@acme-networks.test",
        "language": "fr",
        "timeZone": "Europe/Paris",
    }
    assert (added.id, added.confirmed_at) == ("a-1", None)
    assert (removing.method, removing.url.path) == (
        "DELETE",
        "/provider/api/companies/c-1/notice_addresses/a-1",
    )
