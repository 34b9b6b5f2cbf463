"""The user form dialog (spec 2, User form): persistent, 70 % wide, full screen on phones, with
Close and Save. Used by the users list and the profile page, each with its own form state."""

import reflex as rx
from reflex.vars import ObjectVar

from portal.components.company_picker import (
    CompanyOption,
    company_chip,
    company_matches,
    company_search,
)
from portal.components.forms import field
from portal.components.i18n import _
from portal.components.roles import role_label
from portal.components.users.access_view import access_section
from portal.components.users.form_state import UserFormState
from portal.i18n import N_
from portal.validation import PASSWORD_HINT

Form = type[UserFormState]
EMAIL_WILL_BE_SENT = N_(
    "An e-mail will be sent to this user so that they can confirm their account."
)
ADMIN_ROLE_WARNING = N_(
    "Warning: an administrator role gives full access to the portal and to every company."
)


def _error(form: Form, name: str) -> tuple[rx.Var, rx.Var]:
    return form.field_errors.get(name, ""), form.field_errors.contains(name)


def _text_field(
    form: Form, name: str, label: str, value: rx.Var, on_change, **props
) -> rx.Component:
    return field(
        _(label),
        rx.input(
            id=f"user-form-{name}",
            value=value,
            on_change=on_change,
            on_blur=form.touch(name),
            width="100%",
            **props,
        ),
        *_error(form, name),
    )


def _company(form: Form) -> rx.Component:
    company: ObjectVar[CompanyOption] = form.company_value.to(ObjectVar, CompanyOption)
    return field(
        _("Company"),
        rx.vstack(
            rx.cond(
                company.id != "",
                company_chip(company.name, form.clear_company, removable=~form.editing_self),
            ),
            company_search(
                "user-form-company",
                form.company_query,
                form.search_company,
                _("Company"),
                disabled=form.editing_self,
            ),
            company_matches(form.company_matches, form.choose_company),
            spacing="2",
            width="100%",
        ),
        *_error(form, "company"),
    )


def _auxiliary_companies(form: Form) -> rx.Component:
    return field(
        _("Auxiliary companies"),
        rx.vstack(
            rx.flex(
                rx.foreach(
                    form.auxiliary_values,
                    lambda c: company_chip(
                        c.name, form.remove_auxiliary(c.id), removable=~form.editing_self
                    ),
                ),
                wrap="wrap",
                spacing="2",
            ),
            company_search(
                "user-form-auxiliaryCompanies",
                form.auxiliary_query,
                form.search_auxiliary,
                _("Auxiliary companies"),
                disabled=form.editing_self,
            ),
            company_matches(form.auxiliary_matches, form.add_auxiliary),
            spacing="2",
            width="100%",
        ),
        *_error(form, "auxiliaryCompanies"),
    )


def _roles(form: Form) -> rx.Component:
    def choice(role: rx.Var[str]) -> rx.Component:
        # The checkbox with its text is one label: a label around it would nest two, and the
        # box would have no name.
        return rx.checkbox(
            role_label(role),
            checked=form.role_values.contains(role),
            on_change=form.toggle_role(role),
            disabled=form.editing_self,
            size="2",
        )

    error, shown = _error(form, "roles")
    return rx.vstack(
        rx.text(_("Roles"), size="2", weight="medium"),
        rx.grid(
            rx.foreach(form.role_choices, choice),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="2",
            role="group",
            aria_label=_("Roles"),
        ),
        rx.cond(shown, rx.text(error, size="1", color=rx.color("red", 11), role="alert")),
        rx.cond(
            form.admin_role_selected,
            rx.callout(_(ADMIN_ROLE_WARNING), icon="shield-alert", color_scheme="amber", size="1"),
        ),
        spacing="2",
        width="100%",
    )


def _passwords(form: Form) -> rx.Component:
    return rx.cond(
        form.password_shown,
        rx.grid(
            _text_field(
                form,
                "password",
                N_("Password"),
                form.password_value,
                form.set_password_value,
                type="password",
                auto_complete="new-password",
            ),
            _text_field(
                form,
                "confirmPassword",
                N_("Confirm password"),
                form.confirm_value,
                form.set_confirm_value,
                type="password",
                auto_complete="new-password",
            ),
            rx.text(_(PASSWORD_HINT), size="1", color=rx.color("gray", 11), grid_column="1 / -1"),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="3",
            width="100%",
        ),
    )


def _fields(form: Form) -> rx.Component:
    return rx.vstack(
        rx.cond(
            form.creating,
            rx.callout(_(EMAIL_WILL_BE_SENT), icon="mail", color_scheme="blue", size="1"),
        ),
        rx.cond(
            form.alert_lines.length() > 0,
            rx.callout.root(
                rx.callout.icon(rx.icon("circle-x")),
                rx.vstack(rx.foreach(form.alert_lines, rx.callout.text), spacing="1"),
                color_scheme="red",
                role="alert",
            ),
        ),
        rx.grid(
            _text_field(
                form, "firstname", N_("First name"), form.firstname_value, form.set_firstname_value
            ),
            _text_field(
                form, "lastname", N_("Last name"), form.lastname_value, form.set_lastname_value
            ),
            _text_field(
                form, "email", N_("E-mail"), form.email_value, form.set_email_value, type="email"
            ),
            _text_field(
                form,
                "phoneNumber",
                N_("Phone number"),
                form.phone_value,
                form.set_phone_value,
                type="tel",
            ),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="3",
            width="100%",
        ),
        _passwords(form),
        _roles(form),
        rx.cond(
            form.ldap_shown,
            rx.checkbox(
                _("LDAP account"), checked=form.ldap_value, on_change=form.set_ldap_value, size="2"
            ),
        ),
        rx.grid(
            _company(form),
            _auxiliary_companies(form),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="3",
            width="100%",
        ),
        access_section(form),
        spacing="4",
        width="100%",
    )


def user_form_dialog(form: Form) -> rx.Component:
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(
                rx.cond(form.creating, _("Create user"), _("Update user")), margin_bottom="16px"
            ),
            rx.dialog.description(
                _("The user's identity, roles, companies and access."),
                style={
                    "position": "absolute",
                    "width": "1px",
                    "height": "1px",
                    "overflow": "hidden",
                },
            ),
            rx.cond(
                form.form_loading,
                rx.center(rx.spinner(size="3"), padding="48px", role="status"),
                _fields(form),
            ),
            rx.flex(
                rx.button(
                    _("Close"),
                    type="button",
                    variant="soft",
                    color_scheme="gray",
                    on_click=form.close_form,
                ),
                rx.button(
                    _("Save"),
                    type="button",
                    on_click=form.save,
                    disabled=~form.can_save,
                    loading=form.form_saving,
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
        open=form.form_open,
    )
