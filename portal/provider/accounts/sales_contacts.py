"""The sales contacts of companies with their managers and assistants (spec 2, Contacts; spec 3,
Sales contact), read in a fixed number of queries whatever the size of the team.

One query links the companies to their sales representatives; one recursive query walks from
them along "manager" and "assistant" edges and returns every person reached with their
assistants. ``UNION`` (not ``UNION ALL``) keeps each person once, so a loop in the data (a
manager whose assistant manages them back) ends the walk instead of running forever. Deactivated
accounts are neither shown nor walked through.
"""

import uuid
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass, field

from sqlalchemy import union_all
from sqlmodel import Session, col, select

from portal.provider.platform.models import CompanySales, User, UserAssistant


@dataclass
class SalesTeam:
    """The people met from some companies' sales representatives, and how they link."""

    # Company id → its sales representatives' ids, by last then first name.
    sales: dict[uuid.UUID, list[uuid.UUID]] = field(default_factory=dict)
    people: dict[uuid.UUID, User] = field(default_factory=dict)
    # Person id → their assistants' ids, by last then first name; only people of ``people``.
    assistants: dict[uuid.UUID, list[uuid.UUID]] = field(default_factory=dict)

    def manager_of(self, person: User) -> User | None:
        return self.people.get(person.manager_id) if person.manager_id else None


def _order() -> tuple:
    return (col(User.lastname), col(User.firstname), col(User.id))


def load_sales_links(db: Session, company_ids: Collection[uuid.UUID]) -> SalesTeam:
    """Only which representatives serve each company: ``people`` stays empty."""
    team = SalesTeam(sales={company: [] for company in company_ids})
    if not company_ids:
        return team
    links = db.exec(
        select(CompanySales.company_id, CompanySales.user_id)
        .join(User, col(User.id) == CompanySales.user_id)
        .where(col(CompanySales.company_id).in_(company_ids), col(User.is_active))
        .order_by(*_order())
    ).all()
    for company_id, user_id in links:
        team.sales[company_id].append(user_id)
    return team


def load_sales_team(db: Session, company_ids: Collection[uuid.UUID]) -> SalesTeam:
    """The representatives of each company, and everybody reached from them."""
    team = load_sales_links(db, company_ids)
    if not company_ids:
        return team
    edges = union_all(
        select(col(User.id).label("source"), col(User.manager_id).label("target")).where(
            col(User.manager_id).is_not(None)
        ),
        select(
            col(UserAssistant.user_id).label("source"),
            col(UserAssistant.assistant_id).label("target"),
        ),
    ).cte("sales_edges")
    reached = (
        select(col(CompanySales.user_id).label("id"))
        .join(User, col(User.id) == CompanySales.user_id)
        .where(col(CompanySales.company_id).in_(company_ids), col(User.is_active))
        .cte("sales_tree", recursive=True)
    )
    reached = reached.union(
        select(edges.c.target)
        .join(reached, edges.c.source == reached.c.id)
        .join(User, col(User.id) == edges.c.target)
        .where(col(User.is_active))
    )
    rows = db.exec(
        select(User, UserAssistant.assistant_id)
        .outerjoin(UserAssistant, col(UserAssistant.user_id) == User.id)
        .where(col(User.id).in_(select(reached.c.id)))
        .order_by(*_order())
    ).all()
    assistant_ids: dict[uuid.UUID, list[uuid.UUID]] = defaultdict(list)
    for person, assistant_id in rows:
        team.people[person.id] = person
        if assistant_id is not None:
            assistant_ids[person.id].append(assistant_id)
    # Assistants in name order; one who is deactivated was not reached and is left out.
    position = {person_id: index for index, person_id in enumerate(team.people)}
    for person_id, ids in assistant_ids.items():
        kept = [i for i in dict.fromkeys(ids) if i in team.people]
        team.assistants[person_id] = sorted(kept, key=position.__getitem__)
    return team
