"""The routers of billing, one per resource, listed in order in ``portal.provider.routers``."""
