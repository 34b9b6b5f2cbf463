"""Who is calling: the principal of a request and the dependencies routes declare.

``CurrentPrincipal`` is what nearly every ``/api`` route takes: a signed-in user who has accepted
the terms (else 401, or 403 with ``code: "required_terms"``). ``PrincipalBeforeTerms`` lets in a
user who has not accepted them yet, for the two routes that must work before (reading oneself and
accepting); ``OptionalPrincipal`` is for routes open to everyone; ``AdminPrincipal`` is for an
administrator's own routes (API tokens, the audit log), ``integration_writer`` for the
integration API.

A request is logged in by the session cookie or by an API token (``Authorization: Bearer pbt_…``,
see ``portal.provider.platform.api_tokens``). An integration token opens the integration API
alone, and of it the kinds of its scopes: every other route answers it 403, so a leaked token
cannot make accounts, touch second factors or mint tokens. It writes as its administrator owner
for that one request, opens no session and sets no cookie, needs no terms acceptance (a machine
reads no terms), and every write it attempts is written to the audit log.

A personal token (issue 51) reads, with GET, the customer routes of its scopes
(``api_tokens.READ_ROUTES``) as its owner: the owner's companies and rights read afresh at each
request, the owner's terms acceptance asked as of a session. Anything else, a write included,
answers it 403; each of its requests is counted against its rate limit first.
"""

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool

from portal.i18n import N_
from portal.permissions import (
    MANAGE_INTEGRATION,
    SECOND_FACTOR_ROLES,
    Rule,
    allows,
    is_staff,
    rules_for,
)
from portal.provider.platform import audit
from portal.provider.platform.api_tokens import authenticate, read_scope, token_limit
from portal.provider.platform.db import READ_METHODS, request_session
from portal.provider.platform.errors import REQUIRED_TERMS, ApiError
from portal.provider.platform.loop_reads import LoopReads
from portal.provider.platform.models import ApiToken, ApiTokenKind
from portal.provider.platform.people import Person, Someone
from portal.provider.platform.rate_limits import count_request
from portal.provider.platform.sessions import (
    LIVE_SESSION,
    LiveSession,
    current_session,
    end_session,
    kept_session,
    live_session,
    request_session_id,
)
from portal.settings import get_settings

TERMS_MESSAGE = N_("Please accept the terms and conditions of use.")
SECOND_FACTOR_MESSAGE = N_("Please set up the second factor of your account first.")
TOKEN_OUTSIDE_INTEGRATION = N_(
    "An API token opens the integration API only: log in as an administrator to do this."
)
SCOPE_MISSING = N_("This API token may not write {scope}: make a token with that scope.")
TOKEN_READS_ONLY = N_("A personal API token only reads: log in to the portal to make changes.")
TOKEN_ROUTE_CLOSED = N_("A personal API token does not open this part of the API.")
SCOPE_NOT_READ = N_("This API token may not read {scope}: make a token with that scope.")
REQUIRED_SECOND_FACTOR = "required_second_factor"
PRINCIPAL_KEY = "patchbay.principal"


@dataclass(frozen=True)
class Principal:
    """The acting user, the staff member impersonating them if any, and what they may do: values
    read with the session, not entities (``portal.provider.platform.people``)."""

    user: Person
    impersonator: Person | None
    # The provider session, or None when the request carries an API token instead.
    session_id: str | None
    company_ids: frozenset[uuid.UUID]
    rules: frozenset[Rule]
    token: ApiToken | None = None
    # The companies where the user sees only the services granted to them (issue 53); None
    # when not read with the principal (an API token's owner): each statement then reads them.
    limited_company_ids: frozenset[uuid.UUID] | None = frozenset()
    # Whether a second factor is required of the user: a staff role under
    # SECOND_FACTOR_REQUIRED, or a company whose policy asks for one (issue 52, item 3).
    second_factor_required: bool = False
    # A session that must set up its second factor before anything else.
    second_factor_due: bool = False

    @property
    def personal_token(self) -> bool:
        """Whether the request carries a user's personal API token (issue 51)."""
        return self.token is not None and self.token.kind == ApiTokenKind.PERSONAL

    @property
    def is_staff(self) -> bool:
        """Staff read every company's data; customers only their companies'."""
        return is_staff(self.user.roles)

    def allows(self, rule: Rule) -> bool:
        return allows(self.rules, rule)


def required_of(user: Someone, company_requires: bool = False) -> bool:
    """Whether a second factor is required of ``user``: every staff role under
    SECOND_FACTOR_REQUIRED, and everyone of a company whose policy asks for it (issue 52)."""
    staff = get_settings().staff_second_factor_required and bool(
        set(user.roles) & SECOND_FACTOR_ROLES
    )
    return staff or company_requires


def _bearer(request: Request) -> str | None:
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" else None


def _token_principal(request: Request, db: Session, value: str) -> Principal | None:
    found = authenticate(db, value)
    if found is None:
        return None
    token, owner = found
    # Read by the metrics (``observability``): every request made with a token is counted.
    request.state.api_token = token.kind.value
    if token.kind == ApiTokenKind.PERSONAL:
        count_request(db, token_limit(), str(token.id))
    # The other methods' requests made with a token go to the audit log.
    if request.method not in READ_METHODS:
        # Written before the route runs, so a write that fails half-way is on record too.
        audit.record(
            db,
            request,
            "token.request",
            actor=owner,
            token_id=str(token.id),
            token_name=token.name,
            method=request.method,
            path=request.url.path,
        )
        db.commit()
    # Either kind acts with the roles its owner is honoured in, like a session.
    person = Person.of(owner)
    return Principal(
        user=person,
        impersonator=None,
        session_id=None,
        company_ids=frozenset(owner.company_ids),
        rules=rules_for(person.roles),
        token=token,
        limited_company_ids=None,
    )


async def optional_principal(request: Request) -> Principal | None:
    """The caller, read once per request whichever dependencies ask for it. Each dependency
    below calls the one it builds on instead of declaring it: FastAPI's solving of a nested
    dependency cost more than its check (docs/decisions/provider-floor.md)."""
    scope = request.scope
    if PRINCIPAL_KEY not in scope:
        scope[PRINCIPAL_KEY] = await _read_principal(request)
    principal: Principal | None = scope[PRINCIPAL_KEY]
    return principal


async def _read_principal(request: Request) -> Principal | None:
    """The caller: an API token when the request has an ``Authorization: Bearer`` header (a bad
    one is no principal at all, whatever cookie comes with it), else the session cookie's.

    On PostgreSQL a session is read on the event loop (``loop_reads``), so that an ``async def``
    route taking the principal waits for no thread. What blocks (a token, SQLite, the rare
    writes: a session's activity, its end) waits in the thread pool, on a database session of
    its own: the route's is not asked for, which a route that reads nothing would pay for."""
    bearer = _bearer(request)
    session_id = request_session_id(request)
    reads: LoopReads | None = request.app.state.loop_reads
    if bearer is None and session_id is None:
        return None
    if bearer is not None or session_id is None or reads is None:
        return await run_in_threadpool(_principal_in_thread, request, bearer)
    rows = await reads.rows(LIVE_SESSION, {"session_id": session_id})
    live = live_session(session_id, rows)
    if live is None and rows:
        live = await run_in_threadpool(_kept, request, session_id, rows)
    if live is not None and not live.user_is_active:
        await run_in_threadpool(_end, request, live.id)
        return None
    return _principal_of(live)


def _principal_in_thread(request: Request, bearer: str | None) -> Principal | None:
    # Not expired at the commits: a token's entity is read after its session has closed.
    with request_session(request, expire_on_commit=False) as db:
        if bearer is not None:
            return _token_principal(request, db, bearer)
        live = current_session(db, request)
        if live is not None and not live.user_is_active:
            end_session(db, live.id)
            db.commit()
            return None
        return _principal_of(live)


def _kept(request: Request, session_id: str, rows: list[tuple[Any, ...]]) -> LiveSession | None:
    with request_session(request) as db:
        return kept_session(db, session_id, rows)


def _end(request: Request, session_id: str) -> None:
    with request_session(request) as db:
        end_session(db, session_id)
        db.commit()


def _principal_of(live: LiveSession | None) -> Principal | None:
    """The principal of a live session of an active user."""
    if live is None:
        return None
    required = required_of(live.user, live.company_requires_second_factor)
    return Principal(
        user=live.user,
        impersonator=live.impersonator,
        session_id=live.id,
        company_ids=live.company_ids,
        limited_company_ids=live.limited_company_ids & live.company_ids,
        rules=rules_for(live.user.roles),
        second_factor_required=required,
        # Impersonation is unaffected: the staff member passed their own factor, and the
        # customer's is theirs alone to set up.
        second_factor_due=(
            required and not live.second_factor_confirmed and live.impersonator is None
        ),
    )


OptionalPrincipal = Annotated[Principal | None, Depends(optional_principal)]


async def principal_before_terms(request: Request) -> Principal:
    """A signed-in person, or a personal token on a read of its scopes; no integration token,
    which opens the integration API alone."""
    principal = await optional_principal(request)
    if principal is None:
        raise ApiError(401)
    if principal.personal_token:
        _check_personal_read(request, principal)
    elif principal.token is not None:
        raise ApiError(403, TOKEN_OUTSIDE_INTEGRATION)
    return principal


def _check_personal_read(request: Request, principal: Principal) -> None:
    """A personal token reads (GET) the routes of its scopes, nothing else; what the owner
    may read of them the route decides, as for a session."""
    if request.method not in READ_METHODS:
        raise ApiError(403, TOKEN_READS_ONLY)
    route = getattr(request.scope.get("route"), "path_format", None)
    scope = read_scope(route) if route else None
    if scope is None:
        raise ApiError(403, TOKEN_ROUTE_CLOSED)
    if principal.token is None or scope not in principal.token.scopes:
        raise ApiError(403, SCOPE_NOT_READ, scope=scope)


PrincipalBeforeTerms = Annotated[Principal, Depends(principal_before_terms)]


def require_accepted_terms(principal: Principal) -> None:
    if not principal.user.has_accepted_terms:
        raise ApiError(403, TERMS_MESSAGE, code=REQUIRED_TERMS)


def require_second_factor(principal: Principal) -> None:
    if principal.second_factor_due:
        raise ApiError(403, SECOND_FACTOR_MESSAGE, code=REQUIRED_SECOND_FACTOR)


def require_full_access(principal: Principal) -> None:
    """What every route but the few before them asks: the terms accepted, and the second factor
    set up where SECOND_FACTOR_REQUIRED asks for one. A route taking ``PrincipalBeforeTerms``
    calls this for all it does beyond those few steps."""
    require_accepted_terms(principal)
    require_second_factor(principal)


async def current_principal(request: Request) -> Principal:
    principal = await principal_before_terms(request)
    require_full_access(principal)
    return principal


CurrentPrincipal = Annotated[Principal, Depends(current_principal)]


async def admin_principal(request: Request) -> Principal:
    """An administrator's own session (not while impersonating someone else)."""
    principal = await current_principal(request)
    if not principal.allows(MANAGE_INTEGRATION):
        raise ApiError(403)
    return principal


AdminPrincipal = Annotated[Principal, Depends(admin_principal)]
# The dependencies that ask for a signed-in person (the OpenAPI document's 401 and 403).
SIGNED_IN = frozenset({principal_before_terms, current_principal, admin_principal})


async def integration_principal(request: Request) -> Principal:
    """An administrator, by session (terms accepted, second factor set up) or by API token."""
    principal = await optional_principal(request)
    if principal is None:
        raise ApiError(401)
    if principal.personal_token:
        raise ApiError(403, TOKEN_READS_ONLY)
    if principal.token is None:
        require_full_access(principal)
    if not principal.allows(MANAGE_INTEGRATION):
        raise ApiError(403)
    return principal


def integration_writer(scope: str) -> Callable[[Principal], Awaitable[Principal]]:
    """The dependency of the integration routes that write ``scope`` (a kind's path): an
    administrator's session, or an API token made for that kind."""

    async def writer(
        principal: Annotated[Principal, Depends(integration_principal)],
    ) -> Principal:
        if principal.token is not None and scope not in principal.token.scopes:
            raise ApiError(403, SCOPE_MISSING, scope=scope)
        return principal

    return writer
