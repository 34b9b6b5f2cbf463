"""Rate-limit counters are keyed by a hash: one per limit and value, revealing neither."""

from datetime import timedelta

from portal.provider.platform.rate_limits import Limit


def test_keys_are_hashes_distinct_per_limit_and_value() -> None:
    account = Limit("login:account", 5, timedelta(minutes=15))
    address = Limit("login:address", 20, timedelta(minutes=15))
    key = account.key("alice@example.test")
    assert len(key) == 64
    assert "alice" not in key
    assert key == account.key("alice@example.test")
    assert key != account.key("bob@example.test")
    assert key != address.key("alice@example.test")
