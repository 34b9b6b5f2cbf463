"""The routers of monitoring, one per resource, listed in order in ``portal.provider.routers``."""
