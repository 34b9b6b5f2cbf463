"""What the contacts page knows (spec 2, Contacts): the companies chosen (all the user's own at
first), the company search, and the contact cards of the chosen companies.

With no company chosen the page asks for one and calls nothing. Each change of the choice reads
the chosen companies again with their whole contacts tree, in one call (``uuid[]`` with
``includes[]=sales``); the provider answers only the companies the user may see. A read that
fails takes the cards of the previous choice away and says so in their place, with Try again.
"""

import reflex as rx

from portal.client import ProviderClient, ProviderError
from portal.components.company_picker import CompanyOption
from portal.pages.contacts.models import ContactCard, contacts_of
from portal.state.failures import reports_failures
from portal.state.messages import failure_text
from portal.state.session import SessionState

COMPANY_SEARCH_MIN_CHARS = 2  # spec 9
COMPANY_SEARCH_RESULTS = 10


class ContactsState(SessionState):
    own_companies: rx.Field[list[CompanyOption]] = rx.field(default_factory=list)
    chosen: rx.Field[list[CompanyOption]] = rx.field(default_factory=list)
    query: rx.Field[str] = rx.field("")
    matches: rx.Field[list[CompanyOption]] = rx.field(default_factory=list)
    sales: rx.Field[list[ContactCard]] = rx.field(default_factory=list)
    further: rx.Field[list[ContactCard]] = rx.field(default_factory=list)
    loading: rx.Field[bool] = rx.field(False)
    # The cards shown belong to the current choice (false before the first answer).
    loaded: rx.Field[bool] = rx.field(False)
    # Why the current choice's cards could not be read, said in their place.
    failure: rx.Field[str] = rx.field("")

    @rx.var
    def chose_own_companies(self) -> bool:
        return [c.id for c in self.chosen] == [c.id for c in self.own_companies]

    @rx.event
    @reports_failures(in_place=True)
    async def load(self):
        if not self._page_open():
            return
        self.query, self.matches = "", []
        self.loading, self.failure = True, ""
        yield
        try:
            client = await self.provider()
            me = await client.users.get(self.user_id, includes=("company",))
            self.own_companies = [CompanyOption(id=c.id, name=c.name or "") for c in me.companies]
            self.chosen = list(self.own_companies)
            await self._read(client)
        except ProviderError as error:
            self._fail(error)
            raise
        finally:
            self.loading = False

    async def _read(self, client: ProviderClient) -> None:
        """The cards of the chosen companies; none and no call when none is chosen."""
        self.loaded = False
        if not self.chosen:
            self.sales, self.further = [], []
            return
        order = {option.id: index for index, option in enumerate(self.chosen)}
        companies = await client.companies.with_sales([option.id for option in self.chosen])
        companies.sort(key=lambda company: order.get(company.id, len(order)))
        contacts = contacts_of(companies)
        self.sales, self.further = contacts.sales, contacts.further
        self.loaded = True

    async def _choose(self, chosen: list[CompanyOption]):
        self.chosen = chosen
        self.loading, self.failure = True, ""
        yield
        try:
            await self._read(await self.provider())
        except ProviderError as error:
            self._fail(error)
            raise
        finally:
            self.loading = False

    def _fail(self, error: ProviderError) -> None:
        """No card stays on screen as if it answered the current choice."""
        self.sales, self.further = [], []
        self.failure = failure_text(error, self.current_language)

    @rx.event
    @reports_failures(in_place=True)
    async def try_again(self):
        """Reads the current choice again; the whole page when even the user's own companies
        could not be read."""
        if not self.own_companies:
            yield ContactsState.load
            return
        async for update in self._choose(list(self.chosen)):
            yield update

    @rx.event
    @reports_failures(in_place=True)
    async def remove_company(self, company_id: str):
        async for update in self._choose([c for c in self.chosen if c.id != company_id]):
            yield update

    @rx.event
    @reports_failures(in_place=True)
    async def add_company(self, company: dict):
        option = CompanyOption.model_validate(company)
        self.query, self.matches = "", []
        if any(c.id == option.id for c in self.chosen):
            return
        async for update in self._choose([*self.chosen, option]):
            yield update

    @rx.event
    @reports_failures(in_place=True)
    async def choose_own_companies(self):
        self.query, self.matches = "", []
        async for update in self._choose(list(self.own_companies)):
            yield update

    @rx.event
    @reports_failures
    async def search(self, query: str):
        """Companies whose name holds ``query`` (2 characters at least, spec 9), those not
        chosen yet; the provider offers a customer only their own companies."""
        self.query = query
        self.matches = []
        if len(query.strip()) < COMPANY_SEARCH_MIN_CHARS:
            return
        page = await (await self.provider()).companies.list(
            name=query.strip(), items_per_page=COMPANY_SEARCH_RESULTS
        )
        taken = {c.id for c in self.chosen}
        self.matches = [
            CompanyOption(id=c.id, name=c.name or "") for c in page.items if c.id not in taken
        ]
