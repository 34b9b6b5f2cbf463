"""One router per resource."""

from portal.provider.routes import auth, companies, users

ROUTERS = (auth.router, users.router, companies.router)
