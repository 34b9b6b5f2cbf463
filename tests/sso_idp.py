"""A real OpenID Connect provider for the single sign-on tests: ``oidc-provider-mock`` (built on
Authlib's server side) in its own process on the loopback address, with real discovery, JWKS,
signatures and redirects. Clients register as a company's administrator would, users are set
with their claims over HTTP, and a restart on the same port is a key rotation (each process
signs with a key of its own)."""

import subprocess
import sys
import time
from urllib.parse import parse_qs, urlsplit

import httpx

from tests.ports import free_port

START_SECONDS = 20


class IdentityProvider:
    """``token_max_age``: the ID tokens' lifetime in seconds (negative: born expired)."""

    def __init__(self, *, token_max_age: int = 3600, registration: bool = True) -> None:
        self.port = free_port()
        self.issuer = f"http://127.0.0.1:{self.port}"
        self.token_max_age = token_max_age
        # Without registration any client id and secret are taken: a restart keeps "its" client.
        self.registration = registration
        # What a test registered it as, to set it again (its issuer, client and domains).
        self.settings: dict[str, object] = {}
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self._process = subprocess.Popen(
            [sys.executable, "-m", "oidc_provider_mock", "--port", str(self.port),
             "--host", "127.0.0.1", "--require-nonce", f"--token-max-age={self.token_max_age}",
             *(["--require-registration"] if self.registration else [])],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                httpx.get(f"{self.issuer}/.well-known/openid-configuration").raise_for_status()
                return
            except httpx.HTTPError:
                assert self._process.poll() is None, "the identity provider exited"
                assert time.monotonic() < deadline, "the identity provider did not start"
                time.sleep(0.1)

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            self._process.wait(10)
        self._process = None

    def rotate_keys(self) -> None:
        """Same issuer, new signing key: what the identity provider held (clients, users) is
        lost with the process, so register and set users again afterwards."""
        self.stop()
        self.start()

    def register(self, redirect_uri: str) -> tuple[str, str]:
        """A new client: its id and secret."""
        answer = httpx.post(
            f"{self.issuer}/oauth2/clients",
            json={
                "redirect_uris": [redirect_uri],
                "token_endpoint_auth_method": "client_secret_basic",
            },
        )
        answer.raise_for_status()
        body = answer.json()
        return body["client_id"], body["client_secret"]

    def set_user(self, sub: str, **claims: object) -> None:
        httpx.put(f"{self.issuer}/users/{sub}", json=claims).raise_for_status()

    def jwks_kids(self) -> list[str]:
        keys = httpx.get(f"{self.issuer}/jwks").json()["keys"]
        return [key["kid"] for key in keys]

    def authorize(self, authorization_url: str, sub: str) -> dict[str, str]:
        """What a user does on the identity provider's page: logs in as ``sub``. Returns the
        query of the redirect back to the portal's callback (``code``, ``state``)."""
        assert authorization_url.startswith(self.issuer), authorization_url
        answer = httpx.post(authorization_url, data={"sub": sub})
        assert answer.status_code == 302, answer.text
        location = answer.headers["location"]
        return {name: values[0] for name, values in parse_qs(urlsplit(location).query).items()}
