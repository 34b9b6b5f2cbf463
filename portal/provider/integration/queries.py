"""What the integration API's lists read (``portal.provider.platform.lists``): the API tokens,
an administrator's own list."""

from sqlmodel import col

from portal.provider.platform.lists import ListOf, Sorting
from portal.provider.platform.models import ApiToken
from portal.provider.platform.scoping import staff_only

# Newest first.
TOKENS = ListOf(
    ApiToken,
    Sorting(then=((col(ApiToken.created_at), True), (col(ApiToken.id), False))),
    staff_only,
)
