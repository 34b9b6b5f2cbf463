"""Single sign-on per company with OpenID Connect (issue 52, item 4).

Provider administrators set a company's identity provider (``/api/companies/{id}/sso``); a
login is three calls of the portal's backend: ``/login/sso/lookup`` (does single sign-on cover
this e-mail's domain?), ``/login/sso/start`` (the URL to send the browser to) and
``/login/sso/finish`` (the callback's ``state`` and ``code``: the session, as ``POST /login``
opens it). The protocol is Authlib's (``portal.provider.accounts.sso``).
"""

import re
import uuid
from urllib.parse import urlsplit

from fastapi import Request, Response
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, delete, select

from portal.i18n import N_
from portal.provider.accounts import sso
from portal.provider.accounts.routes.auth import USER_LOCATION
from portal.provider.accounts.schemas.sso import (
    SsoFinishIn,
    SsoLookupIn,
    SsoLookupOut,
    SsoSettingsIn,
    SsoSettingsOut,
    SsoStartIn,
    SsoStartOut,
    settings_out,
)
from portal.provider.accounts.sealing import SSO_CLIENT_SECRET, seal
from portal.provider.accounts.user_changes import INVALID_DATA
from portal.provider.platform.audit import record, record_refusal
from portal.provider.platform.db import SessionDep
from portal.provider.platform.errors import ApiError, Violation
from portal.provider.platform.hydra import iri
from portal.provider.platform.language import LanguageDep, request_language
from portal.provider.platform.models import Company, CompanySso, SsoDomain, utcnow
from portal.provider.platform.rate_limits import (
    count_attempt,
    keyed,
    login_limits,
    not_a_failure,
    too_many_attempts,
)
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.security import AdminPrincipal
from portal.provider.platform.sessions import (
    close_session,
    open_session,
    purge_expired_sessions,
    set_session_cookie,
)
from portal.settings import get_settings
from portal.validation import BLANK

router = ProviderRouter(tags=["single sign-on"])

ISSUER_NOT_HTTPS = N_("The issuer must be an HTTPS address.")
DOMAIN_INVALID = N_("{domain} is not an e-mail domain.")
DOMAIN_TAKEN = N_("The domain {domain} is already covered by another company.")
DOMAIN_STAFF = N_("The staff's own domain cannot be covered.")
ROLES_REFUSED = N_("A user manager cannot give these roles: {roles}.")
REDIRECT_FOREIGN = N_("The callback must be on the portal's own origin.")

_DOMAIN = re.compile(r"^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$")
_LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


def _company(db: Session, company_id: uuid.UUID) -> Company:
    company = db.get(Company, company_id)
    if company is None:
        raise ApiError(404)
    return company


def _domains(db: Session, company_id: uuid.UUID) -> list[str]:
    statement = select(SsoDomain.domain).where(SsoDomain.company_id == company_id)
    return list(db.exec(statement))


def _https(url: str) -> bool:
    """HTTPS, or plain HTTP on the loopback address (a test identity provider)."""
    parts = urlsplit(url)
    if not parts.hostname or parts.query or parts.fragment:
        return False
    return parts.scheme == "https" or (parts.scheme == "http" and parts.hostname in _LOOPBACK)


def _checked(
    db: Session, company_id: uuid.UUID, body: SsoSettingsIn, configured: bool
) -> list[str]:
    """The body's domains, normalised; 422 with every violation."""
    violations: list[Violation] = []
    if not _https(body.issuer.strip()):
        violations.append(Violation("issuer", ISSUER_NOT_HTTPS))
    if not body.client_id.strip():
        violations.append(Violation("clientId", BLANK))
    if not configured and not (body.client_secret or "").strip():
        violations.append(Violation("clientSecret", BLANK))
    domains = list(dict.fromkeys(d.strip().lower().lstrip("@") for d in body.domains))
    staff = get_settings().staff_mail_domain.lower()
    for domain in domains:
        if not _DOMAIN.match(domain):
            violations.append(Violation("domains", DOMAIN_INVALID, {"domain": domain[:100]}))
        elif domain == staff:
            violations.append(Violation("domains", DOMAIN_STAFF))
    taken = db.exec(
        select(SsoDomain.domain).where(
            col(SsoDomain.domain).in_(domains), SsoDomain.company_id != company_id
        )
    )
    for domain in taken:
        violations.append(Violation("domains", DOMAIN_TAKEN, {"domain": domain}))
    if refused := sso.defaults_refused(body.default_roles):
        violations.append(Violation("defaultRoles", ROLES_REFUSED, {"roles": ", ".join(refused)}))
    if violations:
        raise ApiError(422, INVALID_DATA, violations=violations)
    return domains


@router.get("/api/companies/{company_id}/sso", response_model=SsoSettingsOut)
def read_sso_settings(
    company_id: uuid.UUID, db: SessionDep, principal: AdminPrincipal
) -> SsoSettingsOut:
    """A company's single sign-on, without its client secret (administrators only)."""
    _company(db, company_id)
    return settings_out(db.get(CompanySso, company_id), _domains(db, company_id))


@router.put("/api/companies/{company_id}/sso", response_model=SsoSettingsOut)
def write_sso_settings(
    company_id: uuid.UUID,
    body: SsoSettingsIn,
    request: Request,
    db: SessionDep,
    principal: AdminPrincipal,
) -> SsoSettingsOut:
    """Sets a company's single sign-on; the client secret is sealed, and kept when left out."""
    company = _company(db, company_id)
    config = db.get(CompanySso, company_id)
    domains = _checked(db, company_id, body, config is not None)
    if config is None:
        config = CompanySso(company_id=company.id, issuer="", client_id="", sealed_client_secret="")
    config.issuer = body.issuer.strip().rstrip("/")
    config.client_id = body.client_id.strip()
    if body.client_secret and body.client_secret.strip():
        config.sealed_client_secret = seal(
            body.client_secret.strip(), company.id, SSO_CLIENT_SECRET
        )
    config.password_allowed = body.password_allowed
    config.create_users = body.create_users
    config.default_roles = list(dict.fromkeys(body.default_roles))
    config.updated_at = utcnow()
    db.add(config)
    db.flush()
    db.exec(delete(SsoDomain).where(col(SsoDomain.company_id) == company.id))
    db.add_all(SsoDomain(domain=domain, company_id=company.id) for domain in domains)
    record(
        db,
        request,
        "sso_settings_changed",
        actor=principal.user,
        company=company.name,
        issuer=config.issuer,
        domains=domains,
        password_allowed=config.password_allowed,
        create_users=config.create_users,
    )
    try:
        db.commit()
    except IntegrityError as error:  # another company took a domain meanwhile
        db.rollback()
        violation = Violation("domains", DOMAIN_TAKEN, {"domain": ", ".join(domains)})
        raise ApiError(422, INVALID_DATA, violations=[violation]) from error
    return settings_out(config, domains)


@router.delete("/api/companies/{company_id}/sso", status_code=204, response_class=Response)
def remove_sso_settings(
    company_id: uuid.UUID, request: Request, db: SessionDep, principal: AdminPrincipal
) -> Response:
    """Removes a company's single sign-on: its users log in with a password again."""
    company = _company(db, company_id)
    config = db.get(CompanySso, company_id)
    if config is not None:
        db.exec(delete(SsoDomain).where(col(SsoDomain.company_id) == company.id))
        db.delete(config)
        record(db, request, "sso_settings_removed", actor=principal.user, company=company.name)
        db.commit()
    return Response(status_code=204)


@router.post("/login/sso/lookup", response_model=SsoLookupOut)
def lookup(body: SsoLookupIn, db: SessionDep) -> SsoLookupOut:
    """Whether single sign-on covers the e-mail's domain: decided on the domain alone, so the
    answer tells nothing of the account."""
    config = sso.covering(db, body.email)
    if config is None:
        return SsoLookupOut(sso=False, password_allowed=True)
    return SsoLookupOut(sso=True, password_allowed=config.password_allowed)


@router.post(
    "/login/sso/start",
    response_model=SsoStartOut,
    responses={
        400: {"description": "Single sign-on does not cover the e-mail's domain."},
        429: {"description": "Too many logins for this account or from this address."},
        502: {"description": "The identity provider cannot be reached."},
    },
)
def start(body: SsoStartIn, request: Request, db: SessionDep) -> SsoStartOut:
    """The identity provider's authorisation URL (code flow, PKCE S256, ``state``, ``nonce``)."""
    email = body.email.strip().lower()
    if sso.origin(body.redirect_uri) not in get_settings().portal_allowed_origins:
        raise ApiError(422, INVALID_DATA, violations=[Violation("redirectUri", REDIRECT_FOREIGN)])
    limits = keyed(request, email, login_limits())
    wait = count_attempt(db, limits)
    db.commit()
    if wait is not None:
        raise too_many_attempts(wait)
    config = sso.covering(db, email)
    if config is None:
        raise ApiError(400, sso.DOMAIN_NOT_COVERED, code="sso_domain", domain=sso.domain_of(email))
    url, state = sso.start(db, config, email, body.redirect_uri)
    db.commit()
    return SsoStartOut(authorization_url=url, state=state)


@router.post(
    "/login/sso/finish",
    status_code=204,
    response_class=Response,
    responses={
        204: {"description": "Logged in.", "headers": USER_LOCATION},
        400: {"description": "Unknown or spent state, wrong nonce, expired or invalid token."},
        403: {"description": "Unverified e-mail, user unknown, disabled or of another company."},
        502: {"description": "The identity provider cannot be reached."},
    },
)
def finish(body: SsoFinishIn, request: Request, db: SessionDep, language: LanguageDep) -> Response:
    """Checks what the identity provider sent back and opens the session, as ``POST /login``."""
    attempt = sso.take_attempt(db, body.state)
    # Spent whatever follows: a state opens at most one try.
    db.commit()
    config = db.get_one(CompanySso, attempt.company_id)
    limits = keyed(request, attempt.email, login_limits())
    try:
        if body.error or not body.code:
            raise ApiError(400, sso.IDP_REFUSED, code="sso_refused")
        who = sso.identity(config, attempt, body.code)
        user = sso.covered_user(db, config, who)
        if user is None:
            if not config.create_users:
                raise ApiError(403, sso.USER_UNKNOWN, code="sso_user_unknown", email=who.email)
            user = sso.new_user(config, who, language)
            db.add(user)
            db.flush()
            record(db, request, "user_created", subject=user, via="sso", issuer=config.issuer)
    except ApiError as error:
        db.rollback()
        record_refusal(
            db,
            request,
            "login_sso_refused",
            limits,
            reason=error.code,
            issuer=config.issuer,
            username=attempt.email,
        )
        db.commit()
        raise
    if request.headers.get("accept-language") and not user.language_chosen:
        user.language = request_language(request)
    db.add(user)
    not_a_failure(db, limits, clears_account=True)
    close_session(db, request)
    purge_expired_sessions(db)
    token = open_session(db, request, user)
    record(db, request, "login", actor=user, method="sso", issuer=config.issuer)
    db.commit()
    response = Response(status_code=204, headers={"Location": iri("users", user.id)})
    set_session_cookie(response, request, token)
    return response
