"""The route table and its URL builders (spec 2)."""

import pytest

from portal import routes


def test_navbar_routes_are_sorted_by_position() -> None:
    assert [route.name for route in routes.NAVBAR_ROUTES] == [
        "services",
        "monitoring",
        "tickets",
        "invoices",
        "contacts",
        "users",
    ]


def test_every_route_of_the_spec_is_there() -> None:
    assert {route.path for route in routes.ROUTES} >= {
        "/login",
        "/forgot-password",
        "/reset-password",
        "/confirm-account",
        "/",
        "/services",
        "/services/[id]",
        "/monitoring",
        "/tickets",
        "/tickets/[id]",
        "/invoices",
        "/contacts",
        "/users",
        "/users/[id]",
        "/legal_notices",
        "/terms",
    }


def test_logged_out_only_pages() -> None:
    assert {
        "/login",
        "/forgot-password",
        "/reset-password",
        "/confirm-account",
    } == routes.LOGGED_OUT_ONLY_PATHS


def test_login_path_keeps_the_target_except_home() -> None:
    assert routes.login_path("/") == "/login"
    assert routes.login_path(None) == "/login"
    assert routes.login_path("/users?name=bob") == "/login?redirect=%2Fusers%3Fname%3Dbob"


@pytest.mark.parametrize(
    ("target", "safe"),
    [
        ("/services?status[]=active", "/services?status[]=active"),
        ("https://evil.test", "/"),
        ("//evil.test/x", "/"),
        ("/\\evil.test", "/"),
        ("", "/"),
        (None, "/"),
    ],
)
def test_redirects_stay_on_this_site(target: str | None, safe: str) -> None:
    assert routes.safe_redirect(target) == safe


# Spec 6: the menu permission of each screen guards the screen itself, whatever the way in.
EXPECTED_PERMISSIONS = {
    "services": ("view", "Menu.services"),
    "service": ("view", "Menu.services"),
    "monitoring": ("view", "Menu.monitoring"),
    "tickets": ("view", "Menu.tickets"),
    "ticket": ("view", "Menu.tickets"),
    "invoices": ("view", "Menu.invoices"),
    "contacts": ("view", "Menu.contacts"),
    "users": ("view", "Menu.users"),
    # Issue 17, beyond the spec: the audit log is for administrators.
    "auditLog": ("view", "AuditLog"),
    "maintenances": ("view", "Menu.services"),
    # Issue 49: opening a ticket is writing one.
    "newTicket": ("write", "Ticket"),
    # Issue 51: personal API tokens, for those who may make them.
    "apiAccess": ("create", "ApiToken"),
    "ssoSettings": ("manage", "Integration"),
    "webhooks": ("manage", "Webhook"),
    # Issue 52: a company's login policy, for administrators.
    "companies": ("manage", "Company"),
}


@pytest.mark.parametrize("route", routes.ROUTES, ids=lambda route: route.name)
def test_each_route_needs_the_permission_of_spec_6(route: routes.Route) -> None:
    permission = route.permission
    expected = EXPECTED_PERMISSIONS.get(route.name)
    assert (tuple(permission) if permission else None) == expected


def test_every_navbar_route_is_guarded_by_its_menu_permission() -> None:
    for route in routes.NAVBAR_ROUTES:
        assert route.permission == ("view", f"Menu.{route.name}")


def test_a_route_is_found_by_its_name() -> None:
    assert routes.by_name("invoices") is routes.INVOICES
