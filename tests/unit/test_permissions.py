"""The permission table of spec section 6, rule by rule."""

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from portal import permissions
from portal.permissions import (
    CLIENT_ROLES,
    SECOND_FACTOR_ROLES,
    STAFF_ROLES,
    Role,
    assignable_roles,
    can,
    can_update_profile,
    honoured_roles,
    is_staff_company,
    rules_for,
    staff_domain_violation,
)

ALL = [role.value for role in Role]
MENUS = ("Menu.users", "Menu.tickets", "Menu.contacts", "Menu.services")


def test_a_user_without_roles_gets_no_rules() -> None:
    assert rules_for([]) == frozenset()


@pytest.mark.parametrize("role", ALL)
@pytest.mark.parametrize("menu", MENUS)
def test_every_role_sees_the_common_menus(role: str, menu: str) -> None:
    assert can(rules_for([role]), "view", menu)


@pytest.mark.parametrize(
    ("action", "subject", "granted"),
    [
        ("impersonate", "all", {Role.ADMIN, Role.SPH_SALES}),
        ("view.all", "User.roles", {Role.ADMIN}),
        ("view.client", "User.roles", {Role.ADMIN, Role.SPH_MANAGE_USERS}),
        ("manage", "User", {Role.ADMIN, Role.SPH_MANAGE_USERS, Role.MANAGE_USERS}),
        ("access", "Invoice", {Role.ADMIN, Role.SPH_READ_ONLY, Role.ACCESS_INVOICES}),
        ("view", "Menu.invoices", {Role.ADMIN, Role.SPH_READ_ONLY, Role.ACCESS_INVOICES}),
        ("access", "Order.pdf", {Role.ADMIN, Role.SPH_READ_ONLY, Role.ACCESS_INVOICES}),
        ("view", "Menu.monitoring", {Role.ADMIN, Role.SPH_READ_ONLY, Role.ACCESS_MONITORING}),
        ("manage", "Service.ref", {Role.ADMIN, Role.REFERENCE_MASTER}),
        # Spec 6: the LDAP checkbox and the staff companies are for ROLE_ADMIN only.
        ("manage", "User.ldap", {Role.ADMIN}),
        ("view", "Company.staff", {Role.ADMIN}),
        # DESIGN 5: the integration API and its tokens are held by ROLE_ADMIN.
        ("manage", "Integration", {Role.ADMIN}),
        # Issue 49: customers write tickets; staff, read-only or not, do not.
        ("write", "Ticket", set(CLIENT_ROLES)),
        # Issue 51: a company's webhooks are its user managers'.
        ("manage", "Webhook", {Role.MANAGE_USERS}),
    ],
)
def test_each_rule_is_granted_to_exactly_its_roles(
    action: str, subject: str, granted: set[Role]
) -> None:
    for role in Role:
        assert can(rules_for([role]), action, subject) is (role in granted), role


def test_rules_of_several_roles_add_up() -> None:
    rules = rules_for([Role.ACCESS_INVOICES, Role.REFERENCE_MASTER])
    assert can(rules, "access", "Invoice")
    assert can(rules, "manage", "Service.ref")
    assert not can(rules, "manage", "User")


def test_the_owner_or_a_user_manager_updates_a_profile() -> None:
    customer = rules_for([Role.ACCESS_MONITORING])
    assert can_update_profile(customer, "me", "me")
    assert not can_update_profile(customer, "me", "someone")
    assert can_update_profile(rules_for([Role.MANAGE_USERS]), "me", "someone")


def test_role_choices_follow_the_actor() -> None:
    assert assignable_roles(rules_for([Role.ADMIN]), [Role.ADMIN]) == ALL
    client_choices = assignable_roles(rules_for([Role.SPH_MANAGE_USERS]), [])
    assert Role.ADMIN not in client_choices
    assert Role.SPH_SALES not in client_choices
    assert Role.MANAGE_USERS in client_choices
    own = assignable_roles(
        rules_for([Role.MANAGE_USERS]), [Role.MANAGE_USERS], [Role.ACCESS_INVOICES]
    )
    assert own == [Role.MANAGE_USERS, Role.ACCESS_INVOICES]


def test_admin_roles_need_the_staff_mail_domain() -> None:
    assert staff_domain_violation([Role.ADMIN], "eve@acme-networks.test", "patchbay.test")
    assert staff_domain_violation([Role.SPH_MANAGE_USERS], "eve@evil.test", "patchbay.test")
    assert not staff_domain_violation([Role.ADMIN], "Ann@Patchbay.test", "patchbay.test")
    assert not staff_domain_violation([Role.MANAGE_USERS], "eve@acme.test", "patchbay.test")


@pytest.mark.parametrize("role", [Role.SPH_READ_ONLY, Role.SPH_SALES])
def test_every_staff_role_needs_the_staff_mail_domain(role: Role) -> None:
    """Issue 47, item 19: read-only and sales staff, who read every customer's data, could be
    outside e-mails."""
    assert staff_domain_violation([role], "eve@acme-networks.test", "patchbay.test")
    assert staff_domain_violation([role], "eve@patchbay.test.evil.test", "patchbay.test")
    assert not staff_domain_violation([role], "ann@patchbay.test", "patchbay.test")


def test_every_staff_role_needs_a_second_factor_when_required() -> None:
    assert SECOND_FACTOR_ROLES == STAFF_ROLES
    assert not SECOND_FACTOR_ROLES & set(CLIENT_ROLES)


@pytest.mark.parametrize(
    ("name", "hidden"),
    [
        ("Patchbay", True),
        ("Patchbay Services", True),
        ("Groupe Patchbay", True),
        ("Acme Networks", False),
        ("Acme Patchbay Resale", False),
    ],
)
def test_staff_companies_begin_or_end_with_the_staff_name(name: str, hidden: bool) -> None:
    assert is_staff_company(name, "Patchbay") is hidden


def test_every_named_rule_is_in_the_table() -> None:
    named = {
        value
        for name, value in vars(permissions).items()
        if name.isupper() and isinstance(value, permissions.Rule)
    }
    assert named == set(permissions.RULES)


RULE_KEY = re.compile(r"^(view|view\.all|view\.client|manage|access|impersonate) [\w.]+$")
UI_PACKAGES = ("components", "pages", "state")


def _ui_string_constants() -> Iterator[tuple[Path, str]]:
    root = Path(permissions.__file__).parent
    for package in UI_PACKAGES:
        for path in (root / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    yield path, node.value


def test_the_ui_names_rules_only_through_the_table() -> None:
    """A rule spelled as a string in a view ("manage Service.ref") hides a button silently
    when misspelled; views name the constants of ``portal.permissions`` instead."""
    spelled = [(path.name, text) for path, text in _ui_string_constants() if RULE_KEY.match(text)]
    assert spelled == []


def test_a_staff_role_counts_only_on_a_staff_email() -> None:
    roles = [Role.SPH_READ_ONLY, Role.ACCESS_INVOICES]
    assert honoured_roles(roles, "ro@patchbay.test", "patchbay.test") == tuple(roles)
    assert honoured_roles(roles, "ro@outside.test", "patchbay.test") == (Role.ACCESS_INVOICES,)
