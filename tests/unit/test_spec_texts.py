"""A regression net for the fixed texts of the specification (sections 1, 2, 4, 5 and 8, and the
reset failure text of DESIGN 6): each is a message of both catalogs, translated into French, and
marked in the module that shows it where the spec says. A reworded message id, a lost
translation or a text moved away from its screen fails here, whichever screen it belongs to.

The browser tests show most of them on screen: the login notices, the forgot-password
confirmation and the reset errors (test_password_reset.py), the terms warning (test_terms.py),
the forbidden access (test_page_permissions.py), the not-found page (test_shell.py), the field
messages (test_login.py, test_user_form.py), the CSV messages (test_service_import.py) and the
delete confirmation (test_user_profile.py).
"""

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from portal import routes

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"_": None, "N_": None, "gettext": (2,), "ngettext": (2, 3)}


@dataclass(frozen=True)
class SpecText:
    text: str
    spec: str  # where the specification fixes it
    shown_in: tuple[str, ...]  # the modules that mark it for the screen or rule of the spec


SPEC_TEXTS = (
    # Section 1 and 2: the shell and the pages of signed-out visitors.
    SpecText(
        "Welcome to your {company} customer portal",
        "1, welcome title",
        ("portal/pages/home/page.py", "portal/pages/login/page.py"),
    ),
    SpecText(
        "The password has been updated. You can login now.",
        "2, Login notice after a reset",
        ("portal/pages/login/page.py",),
    ),
    SpecText(
        "Account has been created. You can login now.",
        "2, Login notice after a confirmation",
        ("portal/pages/login/page.py",),
    ),
    SpecText(
        "If the email exists an email should arrive in the next few minutes.",
        "2, Forgot password confirmation",
        ("portal/pages/forgot_password/page.py",),
    ),
    SpecText(
        "Confirm my account",
        "2, Reset or confirm password: the confirmation button",
        ("portal/pages/reset_password/page.py",),
    ),
    SpecText("Not found", "2, route table: the notFound title", ("portal/routes.py",)),
    SpecText(
        "Leave impersonation", "2, Layout: impersonation banner", ("portal/components/layout.py",)
    ),
    SpecText(
        "Confirm delete account ?",
        "2, User profile: delete confirmation",
        ("portal/components/users/delete_view.py",),
    ),
    SpecText("Operational", "4, service status active", ("portal/components/service_status.py",)),
    # Section 5: validation.
    SpecText(
        "This value should not be blank.",
        "5, required",
        (
            "portal/validation.py",
            "portal/pages/login/page.py",
            "portal/provider/platform/errors.py",
        ),
    ),
    SpecText("Invalid email", "5, e-mail", ("portal/validation.py",)),
    SpecText(
        "This value must be {max} characters or less.",
        "5, max length",
        ("portal/validation.py", "portal/provider/platform/errors.py"),
    ),
    SpecText(
        "This value must be {min} characters or more.",
        "5, min length",
        ("portal/validation.py", "portal/provider/platform/errors.py"),
    ),
    SpecText(
        "This value must only contains letters or numbers.",
        "5, alphanumeric",
        ("portal/validation.py",),
    ),
    SpecText(
        "The password confirmation does not match.",
        "5, confirm password",
        ("portal/validation.py",),
    ),
    SpecText(
        "Unable to assign an Administrator role to an external user",
        "5, admin role for an external e-mail",
        ("portal/validation.py",),
    ),
    SpecText(
        "Only CSV files with a semicolon (;) delimiter are accepted.",
        "5, CSV import",
        ("portal/client_references.py",),
    ),
    # Section 8: errors, and the reset failure text that DESIGN 6 completes.
    SpecText(
        "Please accept the terms and conditions of use.",
        "8, 403 required_terms; 2, Terms of use",
        ("portal/state/messages.py", "portal/provider/platform/security.py"),
    ),
    SpecText(
        "An unexpected error has occurred. If the error persists, please contact support.",
        "8, status 500 or above",
        ("portal/state/messages.py", "portal/provider/platform/errors.py"),
    ),
    SpecText(
        "Forbidden access", "8, warning; 6, route permissions", ("portal/components/page.py",)
    ),
    SpecText(
        "This link is invalid or has expired. You can request a new password from the login page.",
        "8, reset failure (English text: DESIGN 6)",
        ("portal/pages/reset_password/rules.py", "portal/provider/accounts/routes/reset.py"),
    ),
    SpecText("No result", "8, empty lists", ("portal/components/data_table.py",)),
    SpecText(
        "Select at least one entry.",
        "2, Contacts: no company selected",
        ("portal/pages/contacts/views.py",),
    ),
    SpecText(
        "In absolute emergencies, after phoning the Helpdesk, the request can be escalated "
        "along the escalation path.",
        "2, Tickets: process tab",
        ("portal/pages/tickets/process.py",),
    ),
)


@cache
def _catalog(language: str) -> Catalog:
    with (ROOT / "locales" / language / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle, locale=language)


@cache
def _marked_in(module: str) -> frozenset[str]:
    """The message ids a module marks for translation (as the catalogs' extraction sees them)."""
    return frozenset(
        message if isinstance(message, str) else message[0]
        for _line, message, _comments, _context in extract_from_file(
            "python", ROOT / module, keywords=KEYWORDS
        )
    )


def _id(text: SpecText) -> str:
    return text.text[:40]


@pytest.mark.parametrize("spec_text", SPEC_TEXTS, ids=_id)
def test_the_english_catalog_holds_the_spec_text_as_written(spec_text: SpecText) -> None:
    message = _catalog("en").get(spec_text.text)
    assert message is not None, f"{spec_text.text!r} (spec {spec_text.spec}) is not in en"
    assert message.string == spec_text.text


@pytest.mark.parametrize("spec_text", SPEC_TEXTS, ids=_id)
def test_the_french_catalog_translates_the_spec_text(spec_text: SpecText) -> None:
    message = _catalog("fr").get(spec_text.text)
    assert message is not None, f"{spec_text.text!r} (spec {spec_text.spec}) is not in fr"
    assert message.string, f"{spec_text.text!r} has no French translation"
    assert message.string != spec_text.text, f"{spec_text.text!r} is not translated"
    # Placeholders survive translation.
    for name in ("{company}", "{max}", "{min}"):
        assert (name in message.string) == (name in spec_text.text)


@pytest.mark.parametrize("spec_text", SPEC_TEXTS, ids=_id)
def test_the_spec_text_is_marked_where_the_spec_shows_it(spec_text: SpecText) -> None:
    missing = [module for module in spec_text.shown_in if spec_text.text not in _marked_in(module)]
    assert not missing, f"{spec_text.text!r} (spec {spec_text.spec}) is not marked in {missing}"


def test_the_admin_role_refusal_is_one_message_id() -> None:
    # The form and the provider (user writes and the integration API) refuse with one message.
    text = "Unable to assign an Administrator role to an external user"
    marking = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "portal").rglob("*.py"))
        if text in path.read_text(encoding="utf-8")
    ]
    assert marking == ["portal/validation.py"]


def test_the_not_found_page_takes_its_title_from_its_route() -> None:
    assert routes.NOT_FOUND.label == "Not found"
    source = (ROOT / "portal/pages/not_found/page.py").read_text(encoding="utf-8")
    assert "@page(routes.NOT_FOUND" in source


def test_the_french_reset_failure_says_the_link_may_have_expired() -> None:
    # Spec 8: the French text says the link may have expired and a new password can be asked.
    english = next(t.text for t in SPEC_TEXTS if t.text.startswith("This link is invalid"))
    french = _catalog("fr").get(english).string
    assert "expiré" in french
    assert "nouveau mot de passe" in french
