"""Pydantic models of the provider's resources, one module per resource."""

from portal.client.models.base import Entity, ProviderModel
from portal.client.models.companies import Company, SalesContact
from portal.client.models.users import User

__all__ = ["Company", "Entity", "ProviderModel", "SalesContact", "User"]
