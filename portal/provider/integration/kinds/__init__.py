"""The kinds of the integration API, in the order an estate is best loaded: each kind refers
only to kinds above it (a company's sales contacts are users: send the company again once its
sales people are loaded)."""

from portal.provider.integration.batch import Kind
from portal.provider.integration.kinds import (
    companies,
    invoices,
    maintenances,
    samples,
    sensors,
    services,
    ticket_replies,
    tickets,
    users,
)

KINDS: tuple[Kind, ...] = (
    companies.KIND,
    users.KIND,
    services.KIND,
    invoices.KIND,
    tickets.KIND,
    ticket_replies.KIND,
    maintenances.KIND,
    sensors.KIND,
    samples.KIND,
)
BY_NAME = {kind.name: kind for kind in KINDS}
BY_PATH = {kind.path: kind for kind in KINDS}
# What an API token may be allowed to write: the kinds, by path.
SCOPES = tuple(BY_PATH)
