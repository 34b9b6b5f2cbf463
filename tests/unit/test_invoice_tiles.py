"""The invoice tiles (spec 2: Invoices, Dashboard): overdue means due before the provider's
today in BILLING_TIMEZONE, also when the provider's answer does not say which day that is."""

from collections.abc import Iterator
from datetime import date, datetime, timedelta
from decimal import Decimal
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

import pytest

from portal.client.models import Dashboard
from portal.components.invoices.tiles import InvoiceTiles
from portal.settings import get_settings


@pytest.fixture
def billing_zone(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("BILLING_TIMEZONE", request.param)
    get_settings.cache_clear()
    yield request.param
    get_settings.cache_clear()


def _overdue_before(tiles: InvoiceTiles) -> date:
    query = parse_qs(urlsplit(tiles.overdue_url).query)
    return date.fromisoformat(query["dateDueBefore"][0])


def test_the_overdue_tile_opens_the_invoices_due_before_the_providers_today() -> None:
    figures = Dashboard(amount_due=Decimal("12.50"), date=date(2026, 3, 2))
    assert _overdue_before(InvoiceTiles.of(figures, "en")) == date(2026, 3, 1)


# Twenty-five hours apart: whatever the hour, their days differ, so at least one of them is not
# the day of the machine's own zone.
@pytest.mark.parametrize("billing_zone", ["Pacific/Kiritimati", "Pacific/Pago_Pago"], indirect=True)
def test_without_the_providers_day_the_tiles_count_in_the_billing_time_zone(
    billing_zone: str,
) -> None:
    figures = Dashboard(amount_due=Decimal("12.50"))
    today = datetime.now(ZoneInfo(billing_zone)).date()
    assert _overdue_before(InvoiceTiles.of(figures, "en")) == today - timedelta(days=1)
