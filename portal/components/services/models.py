"""A service as the list shows it (card or table row), and the type filter's options."""

import unicodedata

from pydantic import BaseModel

from portal import routes
from portal.client.models import Service, ServiceType
from portal.components.multi_select import Option
from portal.i18n import format_day

LIST_INCLUDES = ("type",)


def fold(text: str) -> str:
    """Lower case without accents: ``Étoile`` and ``etoile`` match (spec 2, type filter)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


class ServiceRow(BaseModel):
    id: str = ""
    path: str = ""
    reference: str = ""
    client_references: str = ""
    status: str = ""
    type_label: str = ""
    endpoint_a: str = ""
    endpoint_b: str = ""
    date_start: str = ""

    @classmethod
    def of(cls, service: Service, language: str) -> "ServiceRow":
        return cls(
            id=service.id,
            path=routes.service_path(service.id),
            reference=service.reference,
            client_references=", ".join(service.client_references),
            status=service.status,
            type_label=service.type.label if service.type else "",
            endpoint_a=service.endpoint_a.place if service.endpoint_a else "",
            endpoint_b=service.endpoint_b.place if service.endpoint_b else "",
            date_start=format_day(service.date_start, language),
        )


def type_options(types: list[ServiceType]) -> list[Option]:
    options = [Option(value=t.uuid or t.id, label=t.label) for t in types]
    return sorted(options, key=lambda option: fold(option.label))


def matching(options: list[Option], text: str) -> list[Option]:
    wanted = fold(text.strip())
    return [option for option in options if wanted in fold(option.label)] if wanted else options
