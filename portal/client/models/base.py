"""What every provider model shares: camelCase aliases, tolerance, and IRIs."""

from typing import Any, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.alias_generators import to_camel

from portal.client.hydra import uuid_from_iri


class ProviderModel(BaseModel):
    """Fields in snake_case, read from (and dumped by alias to) the provider's camelCase JSON.

    Unknown fields are ignored so that a provider adding fields never breaks the portal.
    """

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="ignore",
        coerce_numbers_to_str=True,
    )


class Entity(ProviderModel):
    """A resource with an IRI (``@id``) whose last segment is its uuid (``id``).

    A relation that is not embedded arrives as its bare IRI; it is read as an entity with only
    ``iri`` and ``id`` set. An ``id`` that is itself an IRI is split the same way.
    """

    iri: str = Field(default="", alias="@id")
    id: str = ""

    @model_validator(mode="before")
    @classmethod
    def _accept_bare_iri(cls, data: Any) -> Any:
        return {"@id": data} if isinstance(data, str) else data

    @model_validator(mode="after")
    def _uuid_from_iri(self) -> Self:
        if "/" in self.id:
            self.iri = self.iri or self.id
            self.id = uuid_from_iri(self.id)
        elif not self.id and self.iri:
            self.id = uuid_from_iri(self.iri)
        return self
