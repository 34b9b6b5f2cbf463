"""The per-process cache of provider clients: with several workers, the one that rotated the
provider session (impersonation) stores the new cookie, and every other worker's cached client
must send that one from its next call on, not the closed session's."""

import asyncio

from portal.connections import forget_client, session_client
from portal.session_store import PortalSession


def test_a_cached_client_follows_the_cookie_stored_by_another_worker() -> None:
    token = "token-of-a-rotated-session"
    session = PortalSession(user_id="u1", provider_cookies={"PATCHBAY_PROVIDER_SESSION": "before"})
    cached = session_client(token, session, "en")
    try:
        assert cached.cookies() == {"PATCHBAY_PROVIDER_SESSION": "before"}

        # The worker that rotated the provider session saved the new cookie.
        session.provider_cookies = {"PATCHBAY_PROVIDER_SESSION": "after"}
        again = session_client(token, session, "fr")

        assert again is cached
        assert again.cookies() == {"PATCHBAY_PROVIDER_SESSION": "after"}
        assert again.language == "fr"
    finally:
        asyncio.run(forget_client(token))


def test_a_cached_client_keeps_its_jar_when_nothing_changed() -> None:
    token = "token-of-a-steady-session"
    session = PortalSession(user_id="u1", provider_cookies={"PATCHBAY_PROVIDER_SESSION": "same"})
    try:
        first = session_client(token, session, "en")
        assert session_client(token, session, "en") is first
        assert first.cookies() == {"PATCHBAY_PROVIDER_SESSION": "same"}
    finally:
        asyncio.run(forget_client(token))
