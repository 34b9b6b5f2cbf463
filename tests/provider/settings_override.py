"""Changing settings for one test: environment variables, then the cached settings rebuilt."""

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from portal.settings import get_settings


@contextmanager
def overridden(**values: object) -> Iterator[None]:
    """``with overridden(reset_limit_per_account=1): …`` — setting names, any value."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in values.items():
            patch.setenv(name.upper(), str(value))
        get_settings.cache_clear()
        try:
            yield
        finally:
            patch.undo()
            get_settings.cache_clear()
