"""Who may write which user, and which role changes they may make: the rules of spec section 6
and issue 4 that ``portal.permissions`` does not already hold, as plain functions of roles and
companies (docs/decisions/user-writes.md)."""

import uuid
from collections.abc import Iterable

from portal.permissions import MANAGE_USERS, Role, Rule, allows, assignable_roles, is_staff

# Spec 6: company, auxiliary companies and roles are locked when editing oneself.
LOCKED_FOR_SELF = frozenset({"roles", "company", "auxiliary_companies"})
# What the owner of a profile may change without the manage User permission.
SELF_SERVICE = frozenset({"firstname", "lastname", "phone_number", "password"})
KNOWN_ROLES = frozenset(role.value for role in Role)


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
    actor_company_ids: Iterable[uuid.UUID],
    target_roles: Iterable[str],
    target_company_ids: Iterable[uuid.UUID],
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


def fields_refused_for_self(changed: Iterable[str], *, manages_users: bool) -> list[str]:
    """The changed fields the owner of a profile may not change on it."""
    changed_set = set(changed)
    refused = changed_set & LOCKED_FOR_SELF
    if not manages_users:
        refused |= changed_set - SELF_SERVICE
    return sorted(refused)


def may_set_ldap(actor_roles: Iterable[str]) -> bool:
    """Spec 6: the LDAP checkbox is for ROLE_ADMIN only."""
    return Role.ADMIN in set(actor_roles)


def may_assign_staff_company(actor_roles: Iterable[str]) -> bool:
    """Spec 6: staff companies are hidden from everyone but ROLE_ADMIN."""
    return Role.ADMIN in set(actor_roles)
