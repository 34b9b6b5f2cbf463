"""The route table of spec section 2 and URL builders; views never hard-code paths."""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import urlencode

from portal.i18n import N_
from portal.permissions import (
    CREATE_API_TOKENS,
    MANAGE_COMPANIES,
    MANAGE_INTEGRATION,
    MANAGE_WEBHOOKS,
    VIEW_AUDIT_LOG,
    VIEW_CONTACTS_MENU,
    VIEW_INVOICES_MENU,
    VIEW_MONITORING_MENU,
    VIEW_SERVICES_MENU,
    VIEW_TICKETS_MENU,
    VIEW_USERS_MENU,
    WRITE_TICKETS,
    Rule,
)


class Access(StrEnum):
    PRIVATE = "private"  # login required
    LOGGED_OUT_ONLY = "logged_out_only"  # a signed-in visitor is sent home
    PUBLIC = "public"  # anyone


@dataclass(frozen=True)
class Route:
    name: str
    path: str
    label: str  # English message id of the navbar entry, breadcrumb and page title
    access: Access = Access.PRIVATE
    navbar_position: int | None = None  # shown in the navbar when set, sorted by it
    # What a signed-in user needs to open the page, and to see it in the navbar (spec 2, 6):
    # the guard refuses the page to anyone else, before any provider call.
    permission: Rule | None = None


LOGIN = Route("login", "/login", N_("Login"), Access.LOGGED_OUT_ONLY)
FORGOT_PASSWORD = Route(
    "forgotPassword", "/forgot-password", N_("Forgot password"), Access.LOGGED_OUT_ONLY
)
RESET_PASSWORD = Route(
    "resetPassword", "/reset-password", N_("Reset password"), Access.LOGGED_OUT_ONLY
)
CONFIRM_ACCOUNT = Route(
    "confirmAccount", "/confirm-account", N_("Confirm my account"), Access.LOGGED_OUT_ONLY
)
HOME = Route("home", "/", N_("Home"))
SERVICES = Route(
    "services", "/services", N_("Services"), navbar_position=1, permission=VIEW_SERVICES_MENU
)
SERVICE = Route("service", "/services/[id]", N_("Service"), permission=VIEW_SERVICES_MENU)
MONITORING = Route(
    "monitoring",
    "/monitoring",
    N_("Monitoring"),
    navbar_position=3,
    permission=VIEW_MONITORING_MENU,
)
# Reached from the dashboard, not the navbar: spec 2's menu has no maintenances entry
# (docs/decisions/maintenances-view.md). Maintenances are windows on one's services.
MAINTENANCES = Route(
    "maintenances", "/maintenances", N_("Maintenances"), permission=VIEW_SERVICES_MENU
)
TICKETS = Route(
    "tickets", "/tickets", N_("Tickets"), navbar_position=4, permission=VIEW_TICKETS_MENU
)
TICKET = Route("ticket", "/tickets/[id]", N_("Ticket"), permission=VIEW_TICKETS_MENU)
# Issue 49: a customer opens a ticket, from the tickets list or a service's page (?service=).
NEW_TICKET = Route("newTicket", "/tickets/new", N_("New ticket"), permission=WRITE_TICKETS)
INVOICES = Route(
    "invoices", "/invoices", N_("Invoicing"), navbar_position=5, permission=VIEW_INVOICES_MENU
)
CONTACTS = Route(
    "contacts", "/contacts", N_("Contacts"), navbar_position=6, permission=VIEW_CONTACTS_MENU
)
USERS = Route("users", "/users", N_("Users"), navbar_position=7, permission=VIEW_USERS_MENU)
# A profile: one's own always; another's as far as the provider lets the user read it.
USER = Route("user", "/users/[id]", N_("User"))
# Issue 18, beyond the spec: one's own TOTP second factor; reached from one's profile, and the
# only private page a user sees until they set up a factor SECOND_FACTOR_REQUIRED asks of them.
SECOND_FACTOR = Route("secondFactor", "/account/second-factor", N_("Two-step login"))
# Issue 52: the set-up page opened after a login with a recovery code says how many are left.
AFTER_RECOVERY_CODE = "signedInWith=recoveryCode"
# Issue 50: the e-mails one receives, and a company's extra notice addresses for its user
# managers; reached from the user menu and from the foot of every notice.
NOTIFICATIONS = Route("notifications", "/account/notifications", N_("Notifications"))
# Issue 17, beyond the spec: administrators read the audit log; reached from the user menu.
AUDIT_LOG = Route("auditLog", "/audit", N_("Audit log"), permission=VIEW_AUDIT_LOG)
# Issue 51: one's personal API tokens and how to use them; reached from the user menu.
API_ACCESS = Route(
    "apiAccess", "/account/api-access", N_("API access"), permission=CREATE_API_TOKENS
)
# Issue 52: a company's single sign-on, for administrators; reached from the user menu.
SSO_SETTINGS = Route(
    "ssoSettings", "/admin/single-sign-on", N_("Single sign-on"), permission=MANAGE_INTEGRATION
)
# Issue 51: a company's webhook endpoints and their delivery logs; reached from API access.
WEBHOOKS = Route("webhooks", "/account/webhooks", N_("Webhooks"), permission=MANAGE_WEBHOOKS)
# Issue 52: administrators set each company's login policy; reached from the user menu.
COMPANIES = Route("companies", "/companies", N_("Companies"), permission=MANAGE_COMPANIES)
LEGAL_NOTICES = Route("legalNotices", "/legal_notices", N_("Legal notices"), Access.PUBLIC)
TERMS_OF_USE = Route("termsOfUse", "/terms", N_("Terms of use"), Access.PUBLIC)
# Issue 54: the accessibility statement, linked from the footer.
ACCESSIBILITY = Route("accessibility", "/accessibility", N_("Accessibility"), Access.PUBLIC)
NOT_FOUND = Route("notFound", "/404", N_("Not found"), Access.PUBLIC)

ROUTES = (
    LOGIN,
    FORGOT_PASSWORD,
    RESET_PASSWORD,
    CONFIRM_ACCOUNT,
    HOME,
    SERVICES,
    SERVICE,
    MAINTENANCES,
    MONITORING,
    TICKETS,
    TICKET,
    NEW_TICKET,
    INVOICES,
    CONTACTS,
    USERS,
    USER,
    SECOND_FACTOR,
    NOTIFICATIONS,
    AUDIT_LOG,
    API_ACCESS,
    SSO_SETTINGS,
    WEBHOOKS,
    COMPANIES,
    LEGAL_NOTICES,
    TERMS_OF_USE,
    ACCESSIBILITY,
    NOT_FOUND,
)
NAVBAR_ROUTES = sorted(
    (route for route in ROUTES if route.navbar_position is not None),
    key=lambda route: route.navbar_position or 0,
)
_BY_NAME = {route.name: route for route in ROUTES}
LOGGED_OUT_ONLY_PATHS = frozenset(r.path for r in ROUTES if r.access is Access.LOGGED_OUT_ONLY)

# Backend routes of the portal itself (not pages): the session cookie hand-over, logout and the
# user documentation PDFs.
SESSION_CLAIM_PATH = "/_portal/session"
SESSION_END_PATH = "/_portal/logout"
# Single sign-on (issue 52): the login page sends the browser to the start, which sends it to the
# company's identity provider; the identity provider sends it back to the callback.
SSO_START_PATH = "/_portal/sso/start"
SSO_CALLBACK_PATH = "/_portal/sso/callback"
# The login page's query parameter naming a failed single sign-on (``?sso=sso_expired``).
SSO_FAILURE = "sso"
USER_DOCUMENTATION_FR = "/docs/user_documentation"
USER_DOCUMENTATION_EN = "/docs/user_documentation_en"
# Provider files (documents, exports, templates) streamed through the portal: the provider path
# without its leading slash follows, and the query passes through but for the language.
FILES_PATH = "/_portal/files"
FILES_LANGUAGE = "_lang"
# A user's private maintenance calendar feed: ``/calendar/{token}.ics``, fetched by calendar
# programs without a session (portal/feeds.py).
CALENDAR_FEED_PATH = "/calendar"
# The one-click unsubscribe link of the maintenance notices (RFC 8058), reached without a
# session: ``/unsubscribe/{token}`` (portal/unsubscribe.py).
UNSUBSCRIBE_PATH = "/unsubscribe"
# The confirmation link sent to a company's extra notice address: ``/confirm-notices/{token}``.
CONFIRM_NOTICES_PATH = "/confirm-notices"


def by_name(name: str) -> Route:
    return _BY_NAME[name]


def user_documentation_path(language: str) -> str:
    return USER_DOCUMENTATION_FR if language == "fr" else USER_DOCUMENTATION_EN


def user_path(user_id: str) -> str:
    return f"/users/{user_id}"


def service_path(service_id: str) -> str:
    return f"/services/{service_id}"


def ticket_path(ticket_id: str) -> str:
    return f"/tickets/{ticket_id}"


def new_ticket_path(service_id: str = "") -> str:
    """The new ticket form, about a service when one is given."""
    return NEW_TICKET.path + (f"?{urlencode({'service': service_id})}" if service_id else "")


# The provider paths the portal's file route forwards (issue 18): document downloads and exports
# only, never another API call (a cross-site link once started an impersonation through it).
# A segment is one path segment; a screen that adds a download adds its pattern here.
_SEGMENT = r"[^/]+"
DOCUMENT_DOWNLOADS = tuple(
    re.compile(pattern.replace("{id}", _SEGMENT))
    for pattern in (
        r"api/invoices/{id}/pdf",
        r"api/services/export",
        r"api/services/client_reference/download_csv",
        r"api/services/{id}/order_pdf",
        r"api/services/{id}/documents/{id}",
        r"api/termination_documents/{id}/file",
        r"api/tickets/{id}/attachments/{id}",
    )
)


def is_document_download(provider_path: str) -> bool:
    """Whether ``api/…`` (without the leading slash) is one of the document downloads."""
    return any(pattern.fullmatch(provider_path) for pattern in DOCUMENT_DOWNLOADS)


def calendar_feed_path(token: str) -> str:
    return f"{CALENDAR_FEED_PATH}/{token}.ics"


def file_path(provider_path: str, query: Sequence[tuple[str, str]] = ()) -> str:
    """The portal URL of a provider file: ``/api/services/export`` →
    ``/_portal/files/api/services/export``, with the query kept as given."""
    suffix = "?" + urlencode(list(query), safe="[]") if query else ""
    return f"{FILES_PATH}/{provider_path.lstrip('/')}{suffix}"


def login_path(redirect: str | None = None, **flags: str) -> str:
    """The login page, with the redirect query unless the target is the root (spec 2, guard)."""
    query = dict(flags)
    if redirect and redirect != HOME.path:
        query["redirect"] = redirect
    return LOGIN.path + ("?" + urlencode(query) if query else "")


def safe_redirect(target: str | None) -> str:
    """A redirect target limited to this site's own paths, so the query is no open redirect."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return HOME.path
    return target
