"""The user form dialog (spec 2, User form): persistent, 70 % wide, full screen on phones, with
Close and Save. Used by the users list and the profile page."""

import reflex as rx
from reflex.vars import ArrayVar, ObjectVar

from portal.components.forms import field
from portal.components.i18n import _
from portal.components.roles import role_label
from portal.i18n import N_
from portal.pages.users.form_fields import CompanyOption
from portal.pages.users.form_state import UserFormState as Form
from portal.validation import PASSWORD_HINT

SEARCH_DEBOUNCE_MS = 500  # spec 9
EMAIL_WILL_BE_SENT = N_(
    "An e-mail will be sent to this user so that they can confirm their account."
)
ADMIN_ROLE_WARNING = N_(
    "Warning: an administrator role gives full access to the portal and to every company."
)


def _error(name: str) -> tuple[rx.Var, rx.Var]:
    return Form.field_errors.get(name, ""), Form.field_errors.contains(name)


def _text_field(name: str, label: str, value: rx.Var, on_change, **props) -> rx.Component:
    return field(
        _(label),
        rx.input(
            id=f"user-form-{name}",
            value=value,
            on_change=on_change,
            on_blur=Form.touch(name),
            width="100%",
            **props,
        ),
        *_error(name),
    )


def _matches(matches: ArrayVar, on_choose) -> rx.Component:
    def option(company: ObjectVar[CompanyOption]) -> rx.Component:
        return rx.button(
            company.name,
            type="button",
            role="option",
            variant="ghost",
            justify="start",
            width="100%",
            on_click=on_choose(company),
        )

    return rx.cond(
        matches.length() > 0,
        rx.vstack(
            rx.foreach(matches, option),
            role="listbox",
            spacing="1",
            width="100%",
            padding="6px",
            border=f"1px solid {rx.color('gray', 6)}",
            border_radius="var(--radius-3)",
        ),
    )


def _search_input(input_id: str, value: rx.Var, on_change, label: rx.Var) -> rx.Component:
    return rx.input(
        rx.input.slot(rx.icon("search", size=16)),
        id=input_id,
        type="search",
        value=value,
        on_change=on_change,
        debounce_timeout=SEARCH_DEBOUNCE_MS,
        placeholder=_("Type at least 2 characters"),
        aria_label=label,
        auto_complete="off",
        disabled=Form.editing_self,
        width="100%",
    )


def _chip(name: rx.Var, on_remove, remove_label: rx.Var) -> rx.Component:
    return rx.badge(
        name,
        rx.cond(
            ~Form.editing_self,
            rx.icon_button(
                rx.icon("x", size=12),
                type="button",
                size="1",
                variant="ghost",
                aria_label=remove_label,
                on_click=on_remove,
            ),
        ),
        size="2",
        variant="soft",
        radius="full",
    )


def _company() -> rx.Component:
    company: ObjectVar[CompanyOption] = Form.company_value.to(ObjectVar, CompanyOption)
    return field(
        _("Company"),
        rx.vstack(
            rx.cond(
                company.id != "",
                _chip(company.name, Form.clear_company, _("Remove {name}", name=company.name)),
            ),
            _search_input(
                "user-form-company", Form.company_query, Form.search_company, _("Company")
            ),
            _matches(Form.company_matches, Form.choose_company),
            spacing="2",
            width="100%",
        ),
        *_error("company"),
    )


def _auxiliary_companies() -> rx.Component:
    return field(
        _("Auxiliary companies"),
        rx.vstack(
            rx.flex(
                rx.foreach(
                    Form.auxiliary_values,
                    lambda c: _chip(
                        c.name, Form.remove_auxiliary(c.id), _("Remove {name}", name=c.name)
                    ),
                ),
                wrap="wrap",
                spacing="2",
            ),
            _search_input(
                "user-form-auxiliaryCompanies",
                Form.auxiliary_query,
                Form.search_auxiliary,
                _("Auxiliary companies"),
            ),
            _matches(Form.auxiliary_matches, Form.add_auxiliary),
            spacing="2",
            width="100%",
        ),
        *_error("auxiliaryCompanies"),
    )


def _roles() -> rx.Component:
    def choice(role: rx.Var[str]) -> rx.Component:
        return rx.text(
            rx.flex(
                rx.checkbox(
                    checked=Form.role_values.contains(role),
                    on_change=Form.toggle_role(role),
                    disabled=Form.editing_self,
                ),
                role_label(role),
                spacing="2",
                align="center",
            ),
            as_="label",
            size="2",
        )

    error, shown = _error("roles")
    return rx.vstack(
        rx.text(_("Roles"), size="2", weight="medium"),
        rx.grid(
            rx.foreach(Form.role_choices, choice),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="2",
            role="group",
            aria_label=_("Roles"),
        ),
        rx.cond(shown, rx.text(error, size="1", color=rx.color("red", 11), role="alert")),
        rx.cond(
            Form.admin_role_selected,
            rx.callout(_(ADMIN_ROLE_WARNING), icon="shield-alert", color_scheme="amber", size="1"),
        ),
        spacing="2",
        width="100%",
    )


def _passwords() -> rx.Component:
    return rx.cond(
        Form.password_shown,
        rx.grid(
            _text_field(
                "password",
                N_("Password"),
                Form.password_value,
                Form.set_password_value,
                type="password",
                auto_complete="new-password",
            ),
            _text_field(
                "confirmPassword",
                N_("Confirm password"),
                Form.confirm_value,
                Form.set_confirm_value,
                type="password",
                auto_complete="new-password",
            ),
            rx.text(_(PASSWORD_HINT), size="1", color=rx.color("gray", 11), grid_column="1 / -1"),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="3",
            width="100%",
        ),
    )


def _fields() -> rx.Component:
    return rx.vstack(
        rx.cond(
            Form.creating,
            rx.callout(_(EMAIL_WILL_BE_SENT), icon="mail", color_scheme="blue", size="1"),
        ),
        rx.cond(
            Form.alert_lines.length() > 0,
            rx.callout.root(
                rx.callout.icon(rx.icon("circle-x")),
                rx.vstack(rx.foreach(Form.alert_lines, rx.callout.text), spacing="1"),
                color_scheme="red",
                role="alert",
            ),
        ),
        rx.grid(
            _text_field(
                "firstname", N_("First name"), Form.firstname_value, Form.set_firstname_value
            ),
            _text_field("lastname", N_("Last name"), Form.lastname_value, Form.set_lastname_value),
            _text_field(
                "email", N_("E-mail"), Form.email_value, Form.set_email_value, type="email"
            ),
            _text_field(
                "phoneNumber",
                N_("Phone number"),
                Form.phone_value,
                Form.set_phone_value,
                type="tel",
            ),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="3",
            width="100%",
        ),
        _passwords(),
        _roles(),
        rx.cond(
            Form.ldap_shown,
            rx.text(
                rx.flex(
                    rx.checkbox(checked=Form.ldap_value, on_change=Form.set_ldap_value),
                    _("LDAP account"),
                    spacing="2",
                    align="center",
                ),
                as_="label",
                size="2",
            ),
        ),
        rx.grid(
            _company(),
            _auxiliary_companies(),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="3",
            width="100%",
        ),
        spacing="4",
        width="100%",
    )


def user_form_dialog() -> rx.Component:
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(
                rx.cond(Form.creating, _("Create user"), _("Update user")), margin_bottom="16px"
            ),
            rx.dialog.description(
                _("The user's identity, roles and companies."),
                style={
                    "position": "absolute",
                    "width": "1px",
                    "height": "1px",
                    "overflow": "hidden",
                },
            ),
            rx.cond(
                Form.form_loading,
                rx.center(rx.spinner(size="3"), padding="48px", role="status"),
                _fields(),
            ),
            rx.flex(
                rx.button(
                    _("Close"),
                    type="button",
                    variant="soft",
                    color_scheme="gray",
                    on_click=Form.close_form,
                ),
                rx.button(
                    _("Save"),
                    type="button",
                    on_click=Form.save,
                    disabled=~Form.can_save,
                    loading=Form.form_saving,
                ),
                justify="end",
                spacing="3",
                margin_top="20px",
            ),
            on_escape_key_down=rx.prevent_default,
            on_pointer_down_outside=rx.prevent_default,
            on_interact_outside=rx.prevent_default,
            # Full screen on phones: fixed to the viewport, past the dialog's outer padding.
            position=rx.breakpoints(initial="fixed", sm="relative"),
            inset=rx.breakpoints(initial="0", sm="auto"),
            max_width="none",
            width=rx.breakpoints(initial="100vw", sm="70vw"),
            height=rx.breakpoints(initial="100dvh", sm="auto"),
            max_height=rx.breakpoints(initial="100dvh", sm="90vh"),
            overflow_y="auto",
            border_radius=rx.breakpoints(initial="0", sm="var(--radius-5)"),
        ),
        open=Form.form_open,
    )
