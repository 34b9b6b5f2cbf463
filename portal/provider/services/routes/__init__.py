"""The routers of services, one per resource, listed in order in ``portal.provider.routers``."""
