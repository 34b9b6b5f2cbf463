"""Companies and users: the demo's own (DESIGN 7 logins work) and the generated customers."""

import itertools
import unicodedata
import uuid

from bench.generate.names import (
    COMPANY_KINDS,
    COMPANY_PLACES,
    COMPANY_WORDS,
    FIRST_NAMES,
    LAST_NAMES,
)
from bench.generate.plan import HEAVY_TENANT
from bench.generate.progress import Progress
from bench.generate.world import CustomerCompany, World, allocate
from portal.permissions import CLIENT_ROLES
from portal.provider.demo_data.people import (
    CUSTOMER_COMPANIES,
    FRENCH_SPEAKING,
    PEOPLE,
    STAFF_COMPANY,
)
from portal.provider.platform.models import fold

COMPANY_COLUMNS = ("id", "reference", "name", "created_at")
USER_COLUMNS = (
    "id", "reference", "firstname", "lastname", "email", "search_name", "phone_number", "job",
    "roles", "company_id", "has_accepted_terms", "terms_accepted_at", "ldap", "password_hash",
    "office_phone", "mobile_phone", "manager_id", "created_at", "is_active", "language",
)  # fmt: skip


def slug(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return "-".join("".join(c if c.isalnum() else " " for c in ascii_name.lower()).split())


def _company_names(count: int, world: World) -> list[str]:
    """``count`` distinct invented names; past the word combinations, numbered rounds."""
    combos = list(itertools.product(COMPANY_WORDS, COMPANY_KINDS, COMPANY_PLACES))
    world.rng.shuffle(combos)
    names = []
    for index in range(count):
        word, kind, place = combos[index % len(combos)]
        round_ = index // len(combos)
        names.append(f"{word} {kind} {place}" + (f" {round_ + 1}" if round_ else ""))
    return names


def build_accounts(world: World, staff_company_name: str) -> None:
    companies = world.spool("companies", COMPANY_COLUMNS)
    world.spool("users", USER_COLUMNS)
    world.spool("user_auxiliary_companies", ("user_id", "company_id"))
    world.spool("company_sales", ("company_id", "user_id"))
    world.spool("user_assistants", ("user_id", "assistant_id"))
    created = world.plan.anchor_time
    ids = {STAFF_COMPANY: world.new_id(), **{name: world.new_id() for name in CUSTOMER_COMPANIES}}
    companies.add(ids[STAFF_COMPANY], "C-0001", staff_company_name, created)
    for name in (HEAVY_TENANT, *(c for c in CUSTOMER_COMPANIES if c != HEAVY_TENANT)):
        world.customers.append(_customer(world, ids[name], name, french=name in FRENCH_SPEAKING))
    for name in _company_names(world.plan.bulk_companies, world):
        world.customers.append(_customer(world, world.new_id(), name, world.rng.random() < 0.5))
    for index, customer in enumerate(world.customers, start=1001):
        companies.add(customer.id, f"C-{index:05d}", customer.name, created)
    _demo_people(world, ids)
    _generated_people(world)


def _customer(world: World, id_: uuid.UUID, name: str, french: bool) -> CustomerCompany:
    return CustomerCompany(
        id=id_, name=name, weight=world.rng.lognormvariate(0, 1), domain=slug(name), french=french
    )


def _demo_people(world: World, company_ids: dict[str, uuid.UUID]) -> None:
    """The people of the demo seed with its e-mails, roles and links: the published logins."""
    created = world.plan.anchor_time
    ids = {person.email: world.new_id() for person in PEOPLE}
    customers = {customer.name: customer for customer in world.customers}
    for person in PEOPLE:
        world.add(
            "users",
            ids[person.email],
            None,
            person.firstname,
            person.lastname,
            person.email.lower(),
            fold(f"{person.firstname} {person.lastname}"),
            person.office_phone or person.mobile_phone,
            person.job.value if person.job else None,
            [role.value for role in person.roles],
            company_ids[person.company],
            person.has_accepted_terms,
            created if person.has_accepted_terms else None,
            False,
            world.password_hash,
            person.office_phone,
            person.mobile_phone,
            ids[person.manager] if person.manager else None,
            created,
            True,
            "fr" if person.company in FRENCH_SPEAKING else "en",
        )
        for name in person.auxiliary_companies:
            world.add("user_auxiliary_companies", ids[person.email], company_ids[name])
        for name in person.serves:
            world.add("company_sales", company_ids[name], ids[person.email])
        for assistant in person.assistants:
            world.add("user_assistants", ids[person.email], ids[assistant])
        if person.company == STAFF_COMPANY:
            world.staff_ids[person.email] = ids[person.email]
            if person.serves:
                world.sales_emails.append(person.email)
        else:
            customers[person.company].user_emails.append(person.email.lower())


def _generated_people(world: World) -> None:
    """The remaining users, spread over the customers (each generated company gets one at
    least); each generated company is served by one or two of the demo's sales people."""
    rng = world.rng
    generated = world.customers[len(CUSTOMER_COMPANIES) :]
    free = world.plan.users - len(PEOPLE) - len(generated)
    heavy = min(world.plan.heavy("users"), free)
    spare = free - heavy
    counts = [heavy, *allocate(spare, [c.weight for c in world.customers[1:]])]
    for customer in generated:
        counts[world.customers.index(customer)] += 1
        for email in rng.sample(world.sales_emails, rng.randint(1, 2)):
            world.add("company_sales", customer.id, world.staff_ids[email])
    progress = Progress("users", world.plan.users)
    number = 0
    for customer, count in zip(world.customers, counts, strict=True):
        for _ in range(count):
            number += 1
            _generated_user(world, customer, number)
        progress.advance(count)
    progress.finish()


def _generated_user(world: World, customer: CustomerCompany, number: int) -> None:
    rng = world.rng
    first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
    email = f"{slug(first)}.{slug(last)}.{number}@{customer.domain}.test"
    roles = [role.value for role in CLIENT_ROLES if rng.random() < 0.4] or [CLIENT_ROLES[0].value]
    phone = f"+33 6 39 98 {number // 100 % 100:02d} {number % 100:02d}"
    accepted = rng.random() < 0.95
    user_id = world.new_id()
    world.add(
        "users",
        user_id,
        f"U-{number:07d}",
        first,
        last,
        email,
        fold(f"{first} {last}"),
        phone,
        None,
        roles,
        customer.id,
        accepted,
        world.plan.anchor_time if accepted else None,
        False,
        world.password_hash,
        None,
        phone,
        None,
        world.plan.anchor_time,
        True,
        "fr" if customer.french else "en",
    )
    customer.user_emails.append(email)
    if rng.random() < 0.02 and len(world.customers) > 1:
        other = rng.choice(world.customers)
        if other is not customer:
            world.add("user_auxiliary_companies", user_id, other.id)
