"""The routers of support, one per resource, listed in order in ``portal.provider.routers``."""
