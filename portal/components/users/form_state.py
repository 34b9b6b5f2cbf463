"""The user form (spec 2 and 4, User form): create when there is no user, edit otherwise.

Shared by the users list and the profile page: each subclasses ``UserFormState`` and answers, in
``_after_save``, what follows a save (reload its list, or its user).
Checks run on blur (spec 5); the provider's 422 violations land under their fields.
"""

import reflex as rx

from portal.client import Company, ProviderError, User, ValidationFailed
from portal.components.company_picker import CompanyOption
from portal.components.users.access_state import UserAccessFields
from portal.components.users.form_fields import UserFormFields
from portal.components.users.form_rules import (
    FIELDS,
    FormValues,
    form_problems,
    payload,
    split_violations,
)
from portal.components.users.models import USER_INCLUDES
from portal.i18n import N_, gettext
from portal.permissions import (
    MANAGE_USER_LDAP,
    VIEW_STAFF_COMPANIES,
    assignable_roles,
    has_admin_role,
    is_staff,
    is_staff_company,
    password_fields_shown,
)
from portal.settings import get_settings
from portal.state.failures import reports_failures
from portal.state.messages import Events, MessagesState
from portal.state.session import SessionState

COMPANY_SEARCH_MIN_CHARS = 2  # spec 9
COMPANY_SEARCH_RESULTS = 10
USER_CREATED = N_("User {name} has been created.")
USER_UPDATED = N_("User {name} has been updated.")


def company_options(companies: list[Company], *, staff_too: bool) -> list[CompanyOption]:
    """Companies to offer; staff companies only to admins (spec 6; the provider hides them too)."""
    staff_name = get_settings().staff_company_name
    return [
        CompanyOption(id=c.id, name=c.name or "")
        for c in companies
        if staff_too or not is_staff_company(c.name or "", staff_name)
    ]


class UserFormState(UserFormFields, UserAccessFields, SessionState, mixin=True):
    form_open: rx.Field[bool] = rx.field(False)
    form_loading: rx.Field[bool] = rx.field(False)
    form_saving: rx.Field[bool] = rx.field(False)

    def _values(self) -> FormValues:
        return FormValues(
            firstname=self.firstname_value,
            lastname=self.lastname_value,
            email=self.email_value,
            phone_number=self.phone_value,
            password=self.password_value,
            confirm_password=self.confirm_value,
            roles=tuple(self.role_values),
            ldap=self.ldap_value,
            company=self.company_value.id,
            auxiliary_companies=tuple(c.id for c in self.auxiliary_values),
        )

    def _all_problems(self) -> dict[str, str]:
        found = form_problems(
            self._values(),
            creating=self.creating,
            password_shown=self.password_shown,
            staff_mail_domain=get_settings().staff_mail_domain,
        )
        language = self.current_language
        return {name: gettext(language, msg, **params) for name, (msg, params) in found.items()}

    @rx.var
    def creating(self) -> bool:
        return not self.form_user_id

    @rx.var
    def editing_self(self) -> bool:
        return bool(self.form_user_id) and self.form_user_id == self.user_id

    @rx.var
    def password_shown(self) -> bool:
        return password_fields_shown(
            self.roles, creating=not self.form_user_id, editing_self=self.editing_self
        )

    @rx.var
    def role_choices(self) -> list[str]:
        return assignable_roles(self._held_rules(), self.roles, self.role_values)

    @rx.var
    def ldap_shown(self) -> bool:
        return self._holds(MANAGE_USER_LDAP)

    @rx.var
    def admin_role_selected(self) -> bool:
        return has_admin_role(self.role_values)

    @rx.var
    def field_errors(self) -> dict[str, str]:
        """The message under each field: the provider's violations, else the form's own check
        once the field was left (spec 5: validation on blur)."""
        own = self._all_problems()
        shown = {name: own[name] for name in self.touched_fields if name in own}
        shown.update({name: " ".join(messages) for name, messages in self.violations.items()})
        return shown

    @rx.var
    def can_save(self) -> bool:
        return (
            not self._all_problems()
            and not self.form_saving
            and not self.form_loading
            and not self.access_incomplete
        )

    @rx.var
    def form_title_name(self) -> str:
        return f"{self.firstname_value} {self.lastname_value}".strip()

    def _after_save(self) -> Events:
        """What the screen showing the form does once a user is saved."""
        raise NotImplementedError

    def _reset_form(self) -> None:
        self._clear()
        self._clear_access()
        self.form_loading = self.form_saving = False

    def _fill(self, user: User) -> None:
        self.form_user_id = user.id
        self.firstname_value, self.lastname_value = user.firstname, user.lastname
        self.email_value, self.phone_value = user.email, user.phone_number or ""
        self.role_values = list(user.roles)
        self.ldap_value = user.ldap
        company = user.company
        self.company_value = (
            CompanyOption(id=company.id, name=company.name or "") if company else CompanyOption()
        )
        self.auxiliary_values = [
            CompanyOption(id=c.id, name=c.name or "") for c in user.auxiliary_companies
        ]

    @rx.event
    @reports_failures
    async def open_create(self):
        self._reset_form()
        self.form_open, self.form_loading = True, not is_staff(self.roles)
        yield
        if is_staff(self.roles):
            return
        # A customer user manager creates users of their own company: start from it.
        try:
            own = await (await self.provider()).users.get(self.user_id, includes=USER_INCLUDES)
        finally:
            self.form_loading = False
        if own.company:
            self.company_value = CompanyOption(id=own.company.id, name=own.company.name or "")

    @rx.event
    @reports_failures(shown=True)
    async def open_edit(self, user_id: str):
        self._reset_form()
        self.form_user_id = user_id
        self.form_open = self.form_loading = True
        yield
        try:
            client = await self.provider()
            user = await client.users.get(user_id, includes=USER_INCLUDES)
            if not is_staff(user.roles):
                await self._load_access(client, user_id)
        except ProviderError:
            self.form_open = False
            self._reset_form()
            raise
        self._fill(user)
        self.form_loading = False

    @rx.event
    def close_form(self):
        self.form_open = False
        self._reset_form()

    async def _search(self, query: str) -> list[CompanyOption]:
        """Companies whose name contains ``query`` (2 characters at least, spec 9)."""
        if len(query.strip()) < COMPANY_SEARCH_MIN_CHARS:
            return []
        page = await (await self.provider()).companies.list(
            name=query.strip(), items_per_page=COMPANY_SEARCH_RESULTS
        )
        return company_options(page.items, staff_too=self._holds(VIEW_STAFF_COMPANIES))

    @rx.event
    @reports_failures
    async def search_company(self, query: str):
        self.company_query = query
        self.company_matches = []
        found = await self._search(query)
        self.company_matches = [c for c in found if c.id != self.company_value.id]

    @rx.event
    @reports_failures
    async def search_auxiliary(self, query: str):
        self.auxiliary_query = query
        self.auxiliary_matches = []
        found = await self._search(query)
        taken = {c.id for c in self.auxiliary_values} | {self.company_value.id}
        self.auxiliary_matches = [c for c in found if c.id not in taken]

    @rx.event
    @reports_failures(shown=True, permanent=True)
    async def save(self):
        self.touched_fields = list(FIELDS)
        if not self.can_save:
            return
        self.form_saving, self.alert_lines, self.violations = True, [], {}
        yield
        body = payload(self._values(), password_shown=self.password_shown)
        creating, editing_self = self.creating, self.editing_self
        try:
            client = await self.provider()
            if creating:
                user = await client.users.create(body, includes=USER_INCLUDES)
            else:
                # The access first: a refusal keeps the form open with nothing saved.
                await self._save_access(client, self.form_user_id)
                user = await client.users.update(self.form_user_id, body, includes=USER_INCLUDES)
        except ValidationFailed as error:
            self.violations, self.alert_lines = split_violations(error.by_field())
            self.form_saving = False
            return
        except ProviderError:
            # Spec 8: any other failure is a persistent message, and the dialog closes.
            self.form_open = False
            self._reset_form()
            raise
        if editing_self:
            self.firstname, self.lastname, self.email = user.firstname, user.lastname, user.email
        message = USER_CREATED if creating else USER_UPDATED
        text = gettext(self.current_language, message, name=user.full_name)
        self.form_open = False
        self._reset_form()
        (await self.get_state(MessagesState)).show(text, "success")
        yield self._after_save()
