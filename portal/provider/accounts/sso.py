"""Single sign-on through a company's OpenID Connect provider (issue 52, item 4).

Authlib does the protocol: discovery, the authorisation URL with ``state``, ``nonce`` and PKCE
(S256), the code exchange with the client secret, and the ID token's signature against the
issuer's JWKS (fetched again when a token names a key it does not hold: key rotation) with its
``iss``, ``aud``, ``exp``, ``iat`` and ``nonce``. This module keeps one Authlib client per
company configuration and process, its discovery document for an hour, and says which portal
user an ID token names (docs/decisions/sso-oidc.md).
"""

import hashlib
import secrets
import threading
import time
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

import httpx
from authlib.integrations.base_client import OAuthError
from authlib.integrations.base_client.sync_app import BaseApp, OAuth2Mixin
from authlib.integrations.base_client.sync_openid import OpenIDMixin
from joserfc.errors import BadSignatureError, ClaimError, ExpiredTokenError, JoseError
from sqlmodel import Session, col, delete, select

from portal.i18n import N_
from portal.permissions import CLIENT_ROLES
from portal.provider.accounts.sealing import SSO_CLIENT_SECRET, unseal
from portal.provider.platform.errors import ApiError
from portal.provider.platform.models import CompanySso, SsoAttempt, SsoDomain, User, utcnow

ATTEMPT_LIFETIME = timedelta(minutes=10)
# How long a discovery document (and the JWKS read with it) serves before it is read again.
METADATA_LIFETIME_SECONDS = 3600.0
SCOPE = "openid email profile"
TIMEOUT_SECONDS = 10.0
# ``exp`` and ``iat`` are checked with this much clock skew allowed.
LEEWAY_SECONDS = 60

IDP_UNREACHABLE = N_(
    "Your company's identity provider cannot be reached. Please try again in a few minutes."
)
DOMAIN_NOT_COVERED = N_("Single sign-on does not cover the e-mail domain {domain}.")
USER_UNKNOWN = N_(
    "{email} has no account in the portal. Ask your company's user manager to create it."
)
WRONG_STATE = N_(
    "This login is no longer valid (it has expired or was already used). Please log in again."
)
WRONG_NONCE = N_(
    "The identity provider's answer does not belong to this login. Please log in again."
)
TOKEN_EXPIRED = N_("The identity provider's answer has expired. Please log in again.")
EMAIL_UNVERIFIED = N_("Your identity provider has not verified the e-mail address {email}.")
TOKEN_INVALID = N_("The identity provider's answer could not be verified. Please log in again.")
IDP_REFUSED = N_("Your identity provider did not log you in.")
ACCOUNT_DISABLED = N_("This account is disabled.")
PASSWORD_NOT_ALLOWED = N_(
    "Your company logs in through its identity provider: choose “Continue with your company”."
)


class _OidcApp(OAuth2Mixin, OpenIDMixin, BaseApp):
    """Authlib's synchronous OpenID Connect client on httpx (the provider's routes run in
    threads): the same mixins as its Flask and Django clients, without a web framework."""

    @property
    def client_cls(self) -> type:
        """Authlib's httpx client, imported when a login needs it: on import, that module
        warns that Authlib prefers httpx2 to the httpx this project uses everywhere, and the
        production build fails on a printed deprecation warning."""
        from authlib.integrations.httpx_client import OAuth2Client

        return OAuth2Client


@dataclass(frozen=True)
class _Cached:
    app: _OidcApp
    loaded_at: float


_CLIENTS: dict[tuple[str, str, str], _Cached] = {}
_LOCK = threading.Lock()


def discovery_url(issuer: str) -> str:
    return issuer.rstrip("/") + "/.well-known/openid-configuration"


def origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def domain_of(email: str) -> str:
    return email.rpartition("@")[2].strip().lower()


def client_secret(config: CompanySso) -> str:
    opened = unseal(config.sealed_client_secret, config.company_id, SSO_CLIENT_SECRET)
    if opened is None:
        raise ApiError(502, IDP_UNREACHABLE)
    return opened[0]


def oidc_app(config: CompanySso) -> _OidcApp:
    """The company's Authlib client: one per configuration and process, read again after
    METADATA_LIFETIME_SECONDS (a changed issuer, client or secret is another client)."""
    secret = client_secret(config)
    key = (config.issuer, config.client_id, hashlib.sha256(secret.encode()).hexdigest())
    now = time.monotonic()
    with _LOCK:
        for stale in [
            k for k, c in _CLIENTS.items() if now - c.loaded_at > METADATA_LIFETIME_SECONDS
        ]:
            del _CLIENTS[stale]
        cached = _CLIENTS.get(key)
        if cached is None:
            app = _OidcApp(
                None,
                client_id=config.client_id,
                client_secret=secret,
                server_metadata_url=discovery_url(config.issuer),
                client_kwargs={
                    "scope": SCOPE,
                    "code_challenge_method": "S256",
                    "timeout": TIMEOUT_SECONDS,
                },
            )
            cached = _CLIENTS[key] = _Cached(app, now)
        return cached.app


def forget_clients() -> None:
    """Drops every cached client (tests; a configuration change needs none: its key changes)."""
    with _LOCK:
        _CLIENTS.clear()


def covering(db: Session, email: str) -> CompanySso | None:
    """The single sign-on that covers ``email``'s domain, if any."""
    statement = (
        select(CompanySso)
        .join(SsoDomain, col(SsoDomain.company_id) == col(CompanySso.company_id))
        .where(SsoDomain.domain == domain_of(email))
    )
    return db.exec(statement).first()


def password_refused(db: Session, email: str) -> bool:
    """Whether the company covering ``email`` has its users log in only through its
    identity provider (decided on the domain alone, so it tells nothing of the account)."""
    config = covering(db, email)
    return config is not None and not config.password_allowed


def defaults_refused(roles: list[str]) -> list[str]:
    """The default roles no user manager of a customer company could give: anything but the
    customer roles (a customer's user manager gives only the roles they hold, all of them
    customer roles; staff roles never go to a customer's address)."""
    return sorted(set(roles) - set(CLIENT_ROLES))


def _hashed(state: str) -> str:
    return hashlib.sha256(state.encode()).hexdigest()


def start(db: Session, config: CompanySso, email: str, redirect_uri: str) -> tuple[str, str]:
    """The authorisation URL to send the browser to and its ``state``; the ``nonce`` and the
    PKCE verifier wait in the database (hashed state as key) for the callback."""
    db.exec(delete(SsoAttempt).where(col(SsoAttempt.expires_at) < utcnow()))
    try:
        made: dict[str, Any] = oidc_app(config).create_authorization_url(
            redirect_uri, state=secrets.token_urlsafe(32), login_hint=email
        )
    except (httpx.HTTPError, ValueError) as error:
        raise ApiError(502, IDP_UNREACHABLE) from error
    db.add(
        SsoAttempt(
            id=_hashed(made["state"]),
            company_id=config.company_id,
            email=email,
            nonce=made["nonce"],
            code_verifier=made["code_verifier"],
            redirect_uri=redirect_uri,
            expires_at=utcnow() + ATTEMPT_LIFETIME,
        )
    )
    return made["url"], made["state"]


def take_attempt(db: Session, state: str) -> SsoAttempt:
    """The attempt ``state`` names, removed (single use); WRONG_STATE when none is live."""
    attempt = db.get(SsoAttempt, _hashed(state)) if state else None
    if attempt is None:
        raise ApiError(400, WRONG_STATE, code="sso_state")
    db.delete(attempt)
    if attempt.expires_at < utcnow():
        raise ApiError(400, WRONG_STATE, code="sso_state")
    return attempt


@dataclass(frozen=True)
class Identity:
    email: str
    given_name: str
    family_name: str


def _checked_claims(
    app: _OidcApp, config: CompanySso, token: dict[str, Any], nonce: str
) -> dict[str, Any] | None:
    """The ID token's claims, checked by Authlib. Authlib reads the JWKS again when the token
    names a key id it does not hold; a token without a key id (allowed while the issuer has a
    single key) that the held keys do not verify has the JWKS read again once, too: that issuer
    may have rotated its key."""

    def parse() -> dict[str, Any] | None:
        options = {
            "iss": {"essential": True, "value": config.issuer},
            "aud": {"essential": True, "value": config.client_id},
        }
        return app.parse_id_token(token, nonce=nonce, claims_options=options, leeway=LEEWAY_SECONDS)

    try:
        return parse()
    except BadSignatureError:
        app.fetch_jwk_set(force=True)
        return parse()


def identity(config: CompanySso, attempt: SsoAttempt, code: str) -> Identity:
    """Exchanges ``code`` and checks the ID token; the e-mail it asserts, verified."""
    app = oidc_app(config)
    try:
        token = app.fetch_access_token(
            redirect_uri=attempt.redirect_uri, code=code, code_verifier=attempt.code_verifier
        )
        claims = _checked_claims(app, config, token, attempt.nonce)
    except httpx.HTTPError as error:
        raise ApiError(502, IDP_UNREACHABLE, code="sso_unreachable") from error
    except OAuthError as error:
        raise ApiError(400, IDP_REFUSED, code="sso_refused") from error
    except ExpiredTokenError as error:
        raise ApiError(400, TOKEN_EXPIRED, code="sso_expired") from error
    except ClaimError as error:
        if error.claim == "nonce":
            raise ApiError(400, WRONG_NONCE, code="sso_nonce") from error
        raise ApiError(400, TOKEN_INVALID, code="sso_token") from error
    except (JoseError, ValueError) as error:
        raise ApiError(400, TOKEN_INVALID, code="sso_token") from error
    if claims is None:
        raise ApiError(400, TOKEN_INVALID, code="sso_token")
    email = str(claims.get("email") or "").strip().lower()
    if not email:
        raise ApiError(400, TOKEN_INVALID, code="sso_token")
    if claims.get("email_verified") is not True:
        raise ApiError(403, EMAIL_UNVERIFIED, code="sso_unverified", email=email)
    return Identity(
        email=email,
        given_name=str(claims.get("given_name") or "").strip()[:100],
        family_name=str(claims.get("family_name") or "").strip()[:100],
    )


def covered_user(db: Session, config: CompanySso, who: Identity) -> User | None:
    """The portal user ``who`` names, refused unless their domain is this company's: another
    company's identity provider cannot log in a user of this one. None when unknown."""
    domain = db.get(SsoDomain, domain_of(who.email))
    if domain is None or domain.company_id != config.company_id:
        raise ApiError(403, DOMAIN_NOT_COVERED, code="sso_domain", domain=domain_of(who.email))
    user = db.exec(select(User).where(User.email == who.email)).first()
    if user is not None and user.company_id != config.company_id:
        raise ApiError(403, DOMAIN_NOT_COVERED, code="sso_domain", domain=domain_of(who.email))
    if user is not None and not user.is_active:
        raise ApiError(403, ACCOUNT_DISABLED, code="sso_disabled")
    return user


def new_user(config: CompanySso, who: Identity, language: str) -> User:
    """The user a company that creates users at first login gets: its default roles, as its
    user manager would have made them, and no password."""
    local = who.email.partition("@")[0]
    return User(
        id=uuid.uuid4(),
        firstname=who.given_name or local,
        lastname=who.family_name or "-",
        email=who.email,
        company_id=config.company_id,
        roles=list(config.default_roles),
        language=language,
    )
