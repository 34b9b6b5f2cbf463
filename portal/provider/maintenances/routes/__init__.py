"""The routers of maintenances, one per resource, listed in order in
``portal.provider.routers``."""
