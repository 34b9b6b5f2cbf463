"""The user form's checks, payload and violation mapping (spec 5, 6 and 7)."""

import pytest

from portal.client import User
from portal.components.users.form_rules import (
    FormValues,
    form_problems,
    payload,
    split_violations,
)
from portal.components.users.models import UserRow
from portal.permissions import has_admin_role
from portal.validation import (
    ADMIN_ROLE_REFUSED,
    BLANK,
    CONFIRMATION_MISMATCH,
    INVALID_EMAIL,
    STAFF_ROLE_REFUSED,
    TOO_LONG,
)

VALID = FormValues(firstname="Dana", lastname="Scully", email="dana@acme-networks.test")


def problems(values: FormValues, *, creating: bool = False, password_shown: bool = False):
    return form_problems(
        values, creating=creating, password_shown=password_shown, staff_mail_domain="patchbay.test"
    )


def test_firstname_lastname_and_email_are_required() -> None:
    assert problems(FormValues()) == {
        "firstname": (BLANK, {}),
        "lastname": (BLANK, {}),
        "email": (BLANK, {}),
    }


def test_email_must_be_valid_and_phone_at_most_50_characters() -> None:
    values = FormValues(firstname="Dana", lastname="Scully", email="dana@", phone_number="1" * 51)
    assert problems(values) == {
        "email": (INVALID_EMAIL, {}),
        "phoneNumber": (TOO_LONG, {"max": 50}),
    }
    assert problems(FormValues(**{**VALID.__dict__, "phone_number": "1" * 50})) == {}


def test_passwords_are_required_only_when_creating_and_must_match() -> None:
    assert problems(VALID, creating=True, password_shown=True) == {
        "password": (BLANK, {}),
        "confirmPassword": (BLANK, {}),
    }
    mismatch = FormValues(**{**VALID.__dict__, "password": "Abcdefghij1", "confirm_password": "x"})
    assert problems(mismatch, creating=True, password_shown=True) == {
        "confirmPassword": (CONFIRMATION_MISMATCH, {})
    }
    # Editing oneself: an empty password keeps the current one.
    assert problems(VALID, creating=False, password_shown=True) == {}
    # Hidden password fields are never checked.
    assert problems(VALID, creating=True, password_shown=False) == {}


def test_an_admin_role_needs_an_email_of_the_staff_domain() -> None:
    external = FormValues(**{**VALID.__dict__, "roles": ("ROLE_SPH_MANAGE_USERS",)})
    assert problems(external) == {"roles": (ADMIN_ROLE_REFUSED, {})}
    staff = FormValues(
        firstname="Sam", lastname="Staff", email="sam@patchbay.test", roles=("ROLE_ADMIN",)
    )
    assert problems(staff) == {}


@pytest.mark.parametrize("role", ["ROLE_SPH_READ_ONLY", "ROLE_SPH_SALES"])
def test_every_staff_role_needs_an_email_of_the_staff_domain(role: str) -> None:
    """Issue 47, item 19, with a message that names a staff role, not an administrator's."""
    external = FormValues(**{**VALID.__dict__, "roles": (role,)})
    assert problems(external) == {"roles": (STAFF_ROLE_REFUSED, {})}
    both = FormValues(**{**VALID.__dict__, "roles": (role, "ROLE_ADMIN")})
    assert problems(both) == {"roles": (ADMIN_ROLE_REFUSED, {})}
    staff = FormValues(**{**VALID.__dict__, "email": "dana@patchbay.test", "roles": (role,)})
    assert problems(staff) == {}


def test_admin_role_warning_covers_both_admin_roles_only() -> None:
    assert has_admin_role(["ROLE_ADMIN"])
    assert has_admin_role(["ROLE_SPH_MANAGE_USERS", "ROLE_ACCESS_INVOICES"])
    assert not has_admin_role(["ROLE_MANAGE_USERS", "ROLE_SPH_SALES"])


def test_payload_trims_and_sends_the_password_only_when_shown_and_typed() -> None:
    values = FormValues(
        firstname=" Dana ",
        lastname="Scully ",
        email=" dana@acme-networks.test",
        phone_number="  ",
        password="Abcdefghij1",
        confirm_password="Abcdefghij1",
        roles=("ROLE_ACCESS_INVOICES",),
        company="c-1",
        auxiliary_companies=("c-2",),
    )
    body = payload(values, password_shown=True).body()
    assert body == {
        "firstname": "Dana",
        "lastname": "Scully",
        "email": "dana@acme-networks.test",
        "phoneNumber": None,
        "password": "Abcdefghij1",
        "roles": ["ROLE_ACCESS_INVOICES"],
        "ldap": False,
        "company": "c-1",
        "auxiliaryCompanies": ["c-2"],
    }
    assert payload(values, password_shown=False).body()["password"] is None
    no_password = FormValues(**{**values.__dict__, "password": ""})
    assert payload(no_password, password_shown=True).body()["password"] is None


def test_violations_go_under_their_field_and_the_rest_to_alert_lines() -> None:
    mapped, unmapped = split_violations(
        {
            "email": ["This e-mail is already used."],
            "auxiliaryCompanies[1]": ["Unknown company."],
            "roles": ["Unable to assign an Administrator role to an external user"],
            "": ["Something about the whole form."],
            "job": ["Unknown job."],
        }
    )
    assert mapped == {
        "email": ["This e-mail is already used."],
        "auxiliaryCompanies": ["Unknown company."],
        "roles": ["Unable to assign an Administrator role to an external user"],
    }
    assert unmapped == ["Something about the whole form.", "Unknown job."]


def _user(uuid: str, roles: list[str]) -> User:
    return User(id=uuid, firstname="F", lastname="L", email=f"{uuid}@x.test", roles=roles)


def test_rows_know_whether_they_are_the_viewer_and_may_be_impersonated() -> None:
    admin_roles = ["ROLE_ADMIN"]
    me = UserRow.of(_user("me", admin_roles), "me", admin_roles)
    assert (me.is_self, me.impersonable) == (True, False)
    customer = UserRow.of(_user("c", ["ROLE_MANAGE_USERS"]), "me", admin_roles)
    assert (customer.is_self, customer.impersonable) == (False, True)
    other_admin = UserRow.of(_user("a", admin_roles), "me", admin_roles)
    assert other_admin.impersonable is False
    staff_for_sales = UserRow.of(_user("s", ["ROLE_SPH_READ_ONLY"]), "me", ["ROLE_SPH_SALES"])
    assert staff_for_sales.impersonable is False
    for_customer = UserRow.of(_user("c", []), "me", ["ROLE_MANAGE_USERS"])
    assert for_customer.impersonable is False
