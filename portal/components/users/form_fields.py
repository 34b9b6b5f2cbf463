"""The user form's values and their plain setters, mixed into ``UserFormState``.

Changing a field clears the provider's violations on it: they described the value sent.
"""

import reflex as rx

from portal.components.company_picker import CompanyOption


class UserFormFields(rx.State, mixin=True):
    form_user_id: rx.Field[str] = rx.field("")
    firstname_value: rx.Field[str] = rx.field("")
    lastname_value: rx.Field[str] = rx.field("")
    email_value: rx.Field[str] = rx.field("")
    phone_value: rx.Field[str] = rx.field("")
    password_value: rx.Field[str] = rx.field("")
    confirm_value: rx.Field[str] = rx.field("")
    role_values: rx.Field[list[str]] = rx.field(default_factory=list)
    ldap_value: rx.Field[bool] = rx.field(False)
    company_value: rx.Field[CompanyOption] = rx.field(default_factory=CompanyOption)
    auxiliary_values: rx.Field[list[CompanyOption]] = rx.field(default_factory=list)
    company_query: rx.Field[str] = rx.field("")
    auxiliary_query: rx.Field[str] = rx.field("")
    company_matches: rx.Field[list[CompanyOption]] = rx.field(default_factory=list)
    auxiliary_matches: rx.Field[list[CompanyOption]] = rx.field(default_factory=list)
    touched_fields: rx.Field[list[str]] = rx.field(default_factory=list)
    violations: rx.Field[dict[str, list[str]]] = rx.field(default_factory=dict)
    alert_lines: rx.Field[list[str]] = rx.field(default_factory=list)

    def _changed(self, name: str) -> None:
        if name in self.violations:
            self.violations = {k: v for k, v in self.violations.items() if k != name}

    @rx.event
    def touch(self, name: str):
        if name not in self.touched_fields:
            self.touched_fields = [*self.touched_fields, name]

    @rx.event
    def set_firstname_value(self, value: str):
        self.firstname_value = value
        self._changed("firstname")

    @rx.event
    def set_lastname_value(self, value: str):
        self.lastname_value = value
        self._changed("lastname")

    @rx.event
    def set_email_value(self, value: str):
        self.email_value = value
        self._changed("email")

    @rx.event
    def set_phone_value(self, value: str):
        self.phone_value = value
        self._changed("phoneNumber")

    @rx.event
    def set_password_value(self, value: str):
        self.password_value = value
        self._changed("password")

    @rx.event
    def set_confirm_value(self, value: str):
        self.confirm_value = value
        self._changed("confirmPassword")

    @rx.event
    def toggle_role(self, role: str):
        held = role in self.role_values
        self.role_values = (
            [r for r in self.role_values if r != role] if held else [*self.role_values, role]
        )
        self._changed("roles")
        self.touch("roles")

    @rx.event
    def set_ldap_value(self, value: bool):
        self.ldap_value = value
        self._changed("ldap")

    @rx.event
    def choose_company(self, option: dict):
        self.company_value = CompanyOption(**option)
        self.company_matches, self.company_query = [], ""
        self._changed("company")

    @rx.event
    def clear_company(self):
        self.company_value = CompanyOption()
        self._changed("company")

    @rx.event
    def add_auxiliary(self, option: dict):
        chosen = CompanyOption(**option)
        if all(c.id != chosen.id for c in self.auxiliary_values):
            self.auxiliary_values = [*self.auxiliary_values, chosen]
        self.auxiliary_matches, self.auxiliary_query = [], ""
        self._changed("auxiliaryCompanies")

    @rx.event
    def remove_auxiliary(self, company_id: str):
        self.auxiliary_values = [c for c in self.auxiliary_values if c.id != company_id]
        self._changed("auxiliaryCompanies")

    def _clear(self) -> None:
        self.form_user_id = ""
        self.firstname_value = self.lastname_value = self.email_value = self.phone_value = ""
        self.password_value = self.confirm_value = ""
        self.role_values, self.auxiliary_values = [], []
        self.ldap_value = False
        self.company_value = CompanyOption()
        self.company_matches, self.auxiliary_matches = [], []
        self.company_query = self.auxiliary_query = ""
        self.touched_fields, self.alert_lines = [], []
        self.violations = {}
