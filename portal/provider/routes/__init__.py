"""One router per resource (moving to the domains: portal.provider.routers lists them)."""
