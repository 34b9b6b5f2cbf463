"""Resource namespaces of ``ProviderClient`` (``client.users``, ``client.companies``, …)."""

from portal.client.resources.auth import AuthResource
from portal.client.resources.companies import CompaniesResource
from portal.client.resources.impersonation import ImpersonationResource
from portal.client.resources.users import UsersResource

__all__ = ["AuthResource", "CompaniesResource", "ImpersonationResource", "UsersResource"]
