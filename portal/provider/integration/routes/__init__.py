"""The routers of integration, one per resource, listed in order in ``portal.provider.routers``."""
