"""The companies screen (issue 52): administrators find a company by name and require, or stop
requiring, a second factor of its users."""

import reflex as rx
from pydantic import BaseModel

from portal.client.models.companies import Company
from portal.state.failures import reports_failures
from portal.state.session import SessionState

# The companies one page shows; a search narrows them.
SHOWN = 20


class CompanyRow(BaseModel):
    id: str = ""
    name: str = ""
    second_factor_required: bool = False

    @classmethod
    def of(cls, company: Company) -> "CompanyRow":
        return cls(
            id=company.id,
            name=company.name or "",
            second_factor_required=company.second_factor_required,
        )


class CompaniesState(SessionState):
    loaded: bool = False
    search: str = ""
    rows: rx.Field[list[CompanyRow]] = rx.field(default_factory=list)
    total: int = 0
    # The company whose policy is being saved.
    saving_id: str = ""

    @rx.var
    def total_text(self) -> str:
        return str(self.total)

    @rx.event
    def set_search(self, value: str):
        self.search = value

    @rx.event
    @reports_failures
    async def load(self):
        if not self._page_open():
            return
        await self._refresh()
        self.loaded = True

    @rx.event
    @reports_failures(shown=True)
    async def find(self, _form: dict):
        await self._refresh()

    async def _refresh(self) -> None:
        name = self.search.strip() or None
        page = await (await self.provider()).companies.list(name=name, items_per_page=SHOWN)
        self.rows = [CompanyRow.of(company) for company in page.items]
        self.total = page.total

    @rx.event
    @reports_failures(shown=True)
    async def set_required(self, company_id: str, required: bool):
        if self.saving_id:
            return
        self.saving_id = company_id
        yield
        try:
            client = await self.provider()
            company = await client.companies.set_second_factor_policy(company_id, required)
        finally:
            self.saving_id = ""
        self.rows = [CompanyRow.of(company) if row.id == company_id else row for row in self.rows]
