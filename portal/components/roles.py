"""Role chips with translated labels (DESIGN 6: roles have en and fr labels)."""

import reflex as rx

from portal.components.i18n import _
from portal.i18n import N_
from portal.permissions import STAFF_ROLES, Role

ROLE_LABELS: dict[str, str] = {
    Role.ADMIN: N_("Administrator"),
    Role.SPH_MANAGE_USERS: N_("Provider user manager"),
    Role.SPH_READ_ONLY: N_("Read-only staff"),
    Role.SPH_SALES: N_("Sales"),
    Role.MANAGE_USERS: N_("User manager"),
    Role.ACCESS_INVOICES: N_("Invoice access"),
    Role.ACCESS_MONITORING: N_("Monitoring access"),
    Role.REFERENCE_MASTER: N_("Reference master"),
}


def role_label(role: rx.Var[str]) -> rx.Var:
    """The role's label in the current language; an unknown role shows as sent."""
    return rx.match(role, *((str(key), _(label)) for key, label in ROLE_LABELS.items()), role)


def role_chip(role: rx.Var[str]) -> rx.Component:
    """A chip per role: provider staff roles in the primary colour, customer roles in green."""
    return rx.badge(
        role_label(role),
        color_scheme=rx.match(role, (*sorted(str(r) for r in STAFF_ROLES), "purple"), "grass"),
        variant="soft",
        radius="full",
    )


def role_chips(roles: rx.Var[list[str]]) -> rx.Component:
    return rx.flex(rx.foreach(roles, role_chip), wrap="wrap", spacing="1")
