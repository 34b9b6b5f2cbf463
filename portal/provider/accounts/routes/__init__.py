"""The routers of accounts, one per resource, listed in order in ``portal.provider.routers``."""
