"""The user form's access section (issue 53): in each of the user's companies, every service or
only those chosen, picked by searching the services by reference, client reference, label and
site. Mixed into ``UserFormState``: loaded with the user being edited, sent before the user
itself on Save, so that a refused access keeps the form open and changes nothing."""

import reflex as rx
from pydantic import BaseModel

from portal.client import ProviderClient
from portal.client.models import GrantedService, Service, ServiceFilters, UserAccess
from portal.permissions import MANAGE_USERS
from portal.state.failures import reports_failures
from portal.state.session import SessionState

SEARCH_MIN_CHARS = 2
SEARCH_RESULTS = 10
# "Add all found" reads the search's pages up to this many services.
ADD_ALL_MAX = 5_000
PAGE = 100
# Chips shown of a long choice; the count says the rest.
CHIPS_SHOWN = 60


class AccessCompany(BaseModel):
    id: str = ""
    name: str = ""
    limited: bool = False
    changed: bool = False


class ServiceChoice(BaseModel):
    id: str = ""
    company_id: str = ""
    reference: str = ""
    label: str = ""

    @classmethod
    def of_service(cls, service: Service) -> "ServiceChoice":
        site = service.endpoint_a.name if service.endpoint_a else ""
        kind = service.type.label if service.type else ""
        return cls(
            id=service.id,
            company_id=service.company.id if service.company else "",
            reference=service.reference,
            label=" · ".join(part for part in (kind, site, *service.client_references) if part),
        )

    @classmethod
    def granted(cls, service: GrantedService, company_id: str) -> "ServiceChoice":
        return cls(
            id=service.id,
            company_id=company_id,
            reference=service.reference,
            label=" · ".join(part for part in (service.label, *service.client_references) if part),
        )


class UserAccessFields(SessionState, mixin=True):
    access_companies: rx.Field[list[AccessCompany]] = rx.field(default_factory=list)
    access_company: rx.Field[str] = rx.field("")
    access_chosen: rx.Field[list[ServiceChoice]] = rx.field(default_factory=list)
    access_query: rx.Field[str] = rx.field("")
    access_matches: rx.Field[list[ServiceChoice]] = rx.field(default_factory=list)
    access_adding: rx.Field[bool] = rx.field(False)

    @rx.var
    def access_shown(self) -> bool:
        return bool(self.access_companies) and MANAGE_USERS.key in self.rules

    @rx.var
    def access_limited(self) -> bool:
        return any(c.limited for c in self.access_companies if c.id == self.access_company)

    @rx.var
    def access_chosen_here(self) -> list[ServiceChoice]:
        here = [c for c in self.access_chosen if c.company_id == self.access_company]
        return here[:CHIPS_SHOWN]

    @rx.var
    def access_count(self) -> int:
        return sum(1 for c in self.access_chosen if c.company_id == self.access_company)

    @rx.var
    def access_more(self) -> int:
        return max(0, self.access_count - CHIPS_SHOWN)

    @rx.var
    def access_incomplete(self) -> bool:
        """A company limited to no service: Save waits for a choice."""
        chosen = {c.company_id for c in self.access_chosen}
        return any(c.limited and c.id not in chosen for c in self.access_companies)

    def _clear_access(self) -> None:
        self.access_companies, self.access_chosen, self.access_matches = [], [], []
        self.access_company = self.access_query = ""
        self.access_adding = False

    async def _load_access(self, client: ProviderClient, user_id: str) -> None:
        """The user's access and, where limited, every service they keep."""
        if MANAGE_USERS.key not in self.rules:
            return
        access: UserAccess = await client.users.access(user_id)
        chosen: list[ServiceChoice] = []
        for company in access.companies:
            if not company.limited:
                continue
            page_number = 1
            while True:
                page = await client.users.granted_services(
                    user_id, company.id, page=page_number, items_per_page=PAGE
                )
                chosen += [ServiceChoice.granted(s, company.id) for s in page.items]
                if page_number * PAGE >= page.total:
                    break
                page_number += 1
        self.access_companies = [
            AccessCompany(id=c.id, name=c.company_name, limited=c.limited) for c in access.companies
        ]
        self.access_chosen = chosen
        self.access_company = access.companies[0].id if access.companies else ""

    async def _save_access(self, client: ProviderClient, user_id: str) -> None:
        """Each company whose access changed; the provider checks what the actor may give."""
        for company in self.access_companies:
            if not company.changed:
                continue
            services = [c.id for c in self.access_chosen if c.company_id == company.id]
            await client.users.set_access(
                user_id, company.id, services if company.limited else None
            )

    def _mark(self, limited: bool | None = None) -> None:
        self.access_companies = [
            company.model_copy(
                update={
                    "limited": company.limited if limited is None else limited,
                    "changed": True,
                }
            )
            if company.id == self.access_company
            else company
            for company in self.access_companies
        ]

    @rx.event
    def choose_access_company(self, company_id: str):
        self.access_company = company_id
        self.access_query, self.access_matches = "", []

    @rx.event
    def set_access_mode(self, mode: str):
        self._mark(limited=mode == "only")

    async def _found(self, query: str, page: int, size: int) -> tuple[list[ServiceChoice], int]:
        client = await self.provider()
        found = await client.services.list(
            ServiceFilters(search=query),
            page=page,
            items_per_page=size,
            order={"reference": "asc"},
            includes=("company", "type"),
        )
        matches = [ServiceChoice.of_service(s) for s in found.items]
        return [m for m in matches if m.company_id == self.access_company], found.total

    @rx.event
    @reports_failures
    async def search_access(self, query: str):
        self.access_query = query
        self.access_matches = []
        if len(query.strip()) < SEARCH_MIN_CHARS:
            return
        taken = {c.id for c in self.access_chosen}
        found, _ = await self._found(query.strip(), 1, SEARCH_RESULTS)
        self.access_matches = [m for m in found if m.id not in taken]

    @rx.event
    def add_access_service(self, choice: ServiceChoice):
        if all(c.id != choice.id for c in self.access_chosen):
            self.access_chosen = [*self.access_chosen, choice]
            self._mark()
        self.access_matches = [m for m in self.access_matches if m.id != choice.id]

    @rx.event
    @reports_failures
    async def add_all_found(self):
        """Every service the search finds in this company: a site, a client-reference prefix."""
        query = self.access_query.strip()
        if len(query) < SEARCH_MIN_CHARS:
            return
        self.access_adding = True
        yield
        try:
            taken = {c.id for c in self.access_chosen}
            added: list[ServiceChoice] = []
            page = 1
            while page * PAGE <= ADD_ALL_MAX:
                found, total = await self._found(query, page, PAGE)
                for match in found:
                    if match.id not in taken:
                        taken.add(match.id)
                        added.append(match)
                if page * PAGE >= total:
                    break
                page += 1
            if added:
                self.access_chosen = [*self.access_chosen, *added]
                self._mark()
            self.access_matches = []
        finally:
            self.access_adding = False

    @rx.event
    def remove_access_service(self, service_id: str):
        self.access_chosen = [c for c in self.access_chosen if c.id != service_id]
        self._mark()

    @rx.event
    def clear_access_services(self):
        self.access_chosen = [c for c in self.access_chosen if c.company_id != self.access_company]
        self._mark()
