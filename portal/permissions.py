"""The permission table of spec section 6, once, as plain Python.

The provider enforces these rules on every route; the portal uses the same functions to hide what
the provider would refuse. A rule is an (action, subject) pair in the style of the abilities the
portal checks (``can("manage", "User")``). The rules that depend on more than the actor's roles
(whose profile one updates, whom one manages, which roles one grants) are functions over the
table, below it (docs/decisions/user-writes.md).
"""

from collections.abc import Hashable, Iterable
from enum import StrEnum
from functools import cache
from typing import NamedTuple


class Role(StrEnum):
    ADMIN = "ROLE_ADMIN"
    SPH_MANAGE_USERS = "ROLE_SPH_MANAGE_USERS"
    SPH_READ_ONLY = "ROLE_SPH_READ_ONLY"
    SPH_SALES = "ROLE_SPH_SALES"
    MANAGE_USERS = "ROLE_MANAGE_USERS"
    ACCESS_INVOICES = "ROLE_ACCESS_INVOICES"
    ACCESS_MONITORING = "ROLE_ACCESS_MONITORING"
    REFERENCE_MASTER = "ROLE_REFERENCE_MASTER"


# Staff read every company's data; only an e-mail of the staff mail domain may hold any of these
# roles (spec 5 names the administrator roles; issue 47, item 19 extends it to every staff role).
STAFF_ROLES = frozenset({Role.ADMIN, Role.SPH_MANAGE_USERS, Role.SPH_READ_ONLY, Role.SPH_SALES})
# The administrator roles, about which the user form warns (spec 6).
ADMIN_ROLES = frozenset({Role.ADMIN, Role.SPH_MANAGE_USERS})
# A second factor is required of every staff role when SECOND_FACTOR_REQUIRED is on (issue 18,
# item 10; read-only staff too since issue 47, item 19: they read every customer's data).
SECOND_FACTOR_ROLES = STAFF_ROLES
CLIENT_ROLES = tuple(role for role in Role if role not in STAFF_ROLES)
KNOWN_ROLES = frozenset(role.value for role in Role)


class Rule(NamedTuple):
    action: str
    subject: str

    @property
    def key(self) -> str:
        """How the browser's copy of the rules spells it: ``"manage User"``."""
        return f"{self.action} {self.subject}"


# The rules by name: code names a rule through these, never through a string it could misspell.
VIEW_USERS_MENU = Rule("view", "Menu.users")
VIEW_TICKETS_MENU = Rule("view", "Menu.tickets")
VIEW_CONTACTS_MENU = Rule("view", "Menu.contacts")
VIEW_SERVICES_MENU = Rule("view", "Menu.services")
IMPERSONATE_ANYONE = Rule("impersonate", "all")
VIEW_ALL_ROLES = Rule("view.all", "User.roles")
VIEW_CLIENT_ROLES = Rule("view.client", "User.roles")
MANAGE_USERS = Rule("manage", "User")
ACCESS_INVOICES = Rule("access", "Invoice")
VIEW_INVOICES_MENU = Rule("view", "Menu.invoices")
ACCESS_ORDER_PDF = Rule("access", "Order.pdf")
VIEW_MONITORING_MENU = Rule("view", "Menu.monitoring")
MANAGE_SERVICE_REFERENCES = Rule("manage", "Service.ref")
# Spec 6, user list rules: the LDAP checkbox and the staff companies are for ROLE_ADMIN only.
MANAGE_USER_LDAP = Rule("manage", "User.ldap")
VIEW_STAFF_COMPANIES = Rule("view", "Company.staff")
# DESIGN 5: the write endpoints and API tokens by which the provider's systems feed it.
MANAGE_INTEGRATION = Rule("manage", "Integration")
# Issue 49: opening tickets, writing in their conversations, closing and reopening them, on the
# tickets of one's own companies. Customers only: staff read tickets, and the helpdesk answers
# through the integration API.
WRITE_TICKETS = Rule("write", "Ticket")
# Issue 17, beyond the spec: the audit log (logins, impersonations, user changes, imports).
VIEW_AUDIT_LOG = Rule("view", "AuditLog")
# Issue 51: personal API tokens, with which a customer's own tools read what the user may read
# (docs/decisions/personal-api-tokens.md).
CREATE_API_TOKENS = Rule("create", "ApiToken")
# Issue 51: a company's webhook endpoints, registered by its user managers
# (docs/decisions/webhooks.md).
MANAGE_WEBHOOKS = Rule("manage", "Webhook")
# Issue 52: a company's login policy (a second factor required of its users).
MANAGE_COMPANIES = Rule("manage", "Company")

# Who is granted what: each rule with the roles that grant it. ``None`` means any signed-in user
# holding at least one role.
_ANY_ROLE = None
PERMISSION_TABLE: tuple[tuple[Rule, frozenset[Role] | None], ...] = (
    (VIEW_USERS_MENU, _ANY_ROLE),
    (VIEW_TICKETS_MENU, _ANY_ROLE),
    (VIEW_CONTACTS_MENU, _ANY_ROLE),
    (VIEW_SERVICES_MENU, _ANY_ROLE),
    (IMPERSONATE_ANYONE, frozenset({Role.ADMIN, Role.SPH_SALES})),
    (VIEW_ALL_ROLES, frozenset({Role.ADMIN})),
    (VIEW_CLIENT_ROLES, frozenset({Role.ADMIN, Role.SPH_MANAGE_USERS})),
    (MANAGE_USERS, frozenset({Role.ADMIN, Role.SPH_MANAGE_USERS, Role.MANAGE_USERS})),
    (ACCESS_INVOICES, frozenset({Role.ADMIN, Role.SPH_READ_ONLY, Role.ACCESS_INVOICES})),
    (VIEW_INVOICES_MENU, frozenset({Role.ADMIN, Role.SPH_READ_ONLY, Role.ACCESS_INVOICES})),
    (ACCESS_ORDER_PDF, frozenset({Role.ADMIN, Role.SPH_READ_ONLY, Role.ACCESS_INVOICES})),
    (VIEW_MONITORING_MENU, frozenset({Role.ADMIN, Role.SPH_READ_ONLY, Role.ACCESS_MONITORING})),
    (MANAGE_SERVICE_REFERENCES, frozenset({Role.ADMIN, Role.REFERENCE_MASTER})),
    (MANAGE_USER_LDAP, frozenset({Role.ADMIN})),
    (VIEW_STAFF_COMPANIES, frozenset({Role.ADMIN})),
    (MANAGE_INTEGRATION, frozenset({Role.ADMIN})),
    (VIEW_AUDIT_LOG, frozenset({Role.ADMIN})),
    (WRITE_TICKETS, frozenset(CLIENT_ROLES)),
    (CREATE_API_TOKENS, frozenset({Role.MANAGE_USERS})),
    (MANAGE_WEBHOOKS, frozenset({Role.MANAGE_USERS})),
    (MANAGE_COMPANIES, frozenset({Role.ADMIN})),
)
RULES = frozenset(rule for rule, _granted in PERMISSION_TABLE)

# What a personal API token may read (issue 51): each scope with the rule its user must hold to
# choose it (the provider's routes check their own rules again at each request).
TOKEN_SCOPES: dict[str, Rule] = {
    "services": VIEW_SERVICES_MENU,
    "invoices": ACCESS_INVOICES,
    "tickets": VIEW_TICKETS_MENU,
    "maintenances": VIEW_SERVICES_MENU,
    "monitoring": VIEW_MONITORING_MENU,
}


def rules_for(roles: Iterable[str]) -> frozenset[Rule]:
    """Every rule the roles grant; a user without roles gets none."""
    return _rules_of(frozenset(roles))


# Every signed-in request asks for its rules: one pass over the table per set of roles.
@cache
def _rules_of(held: frozenset[str]) -> frozenset[Rule]:
    if not held:
        return frozenset()
    return frozenset(
        rule for rule, granted_to in PERMISSION_TABLE if granted_to is None or held & granted_to
    )


def can(rules: Iterable[Rule], action: str, subject: str) -> bool:
    return allows(rules, Rule(action, subject))


def allows(rules: Iterable[Rule], rule: Rule) -> bool:
    return rule in set(rules)


def can_update_profile(rules: Iterable[Rule], actor_id: str, user_id: str) -> bool:
    """A profile may be updated by its owner or by anyone who manages users."""
    return actor_id == user_id or allows(rules, MANAGE_USERS)


# Spec 6: company, auxiliary companies and roles are locked when editing oneself.
LOCKED_FOR_SELF = frozenset({"roles", "company", "auxiliary_companies"})
# What the owner of a profile may change without the manage User permission.
SELF_SERVICE = frozenset({"firstname", "lastname", "phone_number", "password"})


def fields_refused_for_self(changed: Iterable[str], *, manages_users: bool) -> list[str]:
    """The changed fields (by attribute name) the owner of a profile may not change on it."""
    changed_set = set(changed)
    refused = changed_set & LOCKED_FOR_SELF
    if not manages_users:
        refused |= changed_set - SELF_SERVICE
    return sorted(refused)


def is_staff(roles: Iterable[str]) -> bool:
    return bool(set(roles) & STAFF_ROLES)


def is_staff_email(email: str, staff_mail_domain: str) -> bool:
    return email.strip().lower().endswith("@" + staff_mail_domain.lower())


def is_staff_company(name: str, staff_company_name: str) -> bool:
    """Staff companies are those whose name begins or ends with the staff company name."""
    folded, staff = name.strip().casefold(), staff_company_name.casefold()
    return folded.startswith(staff) or folded.endswith(staff)


def assignable_roles(
    rules: Iterable[Rule], own_roles: Iterable[str], form_roles: Iterable[str] = ()
) -> list[str]:
    """The role choices of the user form (spec 6), in the order of ``Role``."""
    rule_set = set(rules)
    if VIEW_ALL_ROLES in rule_set:
        return [role.value for role in Role]
    if VIEW_CLIENT_ROLES in rule_set:
        return list(CLIENT_ROLES)
    allowed = set(own_roles) | set(form_roles)
    return [role.value for role in Role if role in allowed]


def unknown_roles(roles: Iterable[str]) -> list[str]:
    return sorted(set(roles) - KNOWN_ROLES)


def ungrantable_roles(
    rules: Iterable[Rule],
    actor_roles: Iterable[str],
    current_roles: Iterable[str],
    new_roles: Iterable[str],
) -> list[str]:
    """The roles added or removed that the actor may not give (``assignable_roles``): one may
    keep a role one cannot grant, but neither grant nor revoke it."""
    current = set(current_roles)
    changed = current ^ set(new_roles)
    allowed = set(assignable_roles(rules, actor_roles, current))
    return sorted(changed - allowed)


def may_manage(
    rules: Iterable[Rule],
    actor_roles: Iterable[str],
    actor_company_ids: Iterable[Hashable],
    target_roles: Iterable[str],
    target_company_ids: Iterable[Hashable],
) -> bool:
    """Whether the actor may edit or delete another user: with the manage User permission, a
    target holding only roles the actor could grant (so a staff user manager cannot take over
    an admin's account), and, for a customer, a target in none but the actor's companies."""
    rule_set = set(rules)
    if not allows(rule_set, MANAGE_USERS):
        return False
    actor = list(actor_roles)
    target = set(target_roles)
    if not target <= set(assignable_roles(rule_set, actor, target)):
        return False
    return is_staff(actor) or set(target_company_ids) <= set(actor_company_ids)


def has_admin_role(roles: Iterable[str]) -> bool:
    """Whether the roles include an administrator role, about which the user form warns
    (spec 6)."""
    return bool(set(roles) & ADMIN_ROLES)


def staff_domain_violation(roles: Iterable[str], email: str, staff_mail_domain: str) -> bool:
    """True when the roles include a staff role that the e-mail may not hold."""
    return is_staff(roles) and not is_staff_email(email, staff_mail_domain)


def honoured_roles(roles: Iterable[str], email: str, staff_mail_domain: str) -> tuple[str, ...]:
    """The roles a user acts with: a staff role held by an e-mail outside the staff domain
    counts for nothing (docs/decisions/staff-roles.md), however it came to be stored."""
    if is_staff_email(email, staff_mail_domain):
        return tuple(roles)
    return tuple(role for role in roles if role not in STAFF_ROLES)


def may_impersonate(actor_roles: Iterable[str], target_roles: Iterable[str]) -> bool:
    """DESIGN 4: admins and sales impersonate; nobody impersonates an admin; sales only
    customers. (No chains and not oneself are checked by the caller, who knows the session.)"""
    actor, target = set(actor_roles), set(target_roles)
    if not actor & {Role.ADMIN, Role.SPH_SALES} or Role.ADMIN in target:
        return False
    return Role.ADMIN in actor or not is_staff(target)


def user_writes_blocked(impersonator_roles: Iterable[str] | None) -> bool:
    """While a sales user impersonates, creating, editing and deleting users is refused
    (spec 6, DESIGN 4)."""
    return impersonator_roles is not None and Role.SPH_SALES in set(impersonator_roles)


def password_fields_shown(own_roles: Iterable[str], *, creating: bool, editing_self: bool) -> bool:
    """Spec 6: hidden from read-only staff; shown only when creating or editing oneself."""
    return Role.SPH_READ_ONLY not in set(own_roles) and (creating or editing_self)
