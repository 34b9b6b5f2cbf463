"""What the monitoring list reads, declared once with its filters
(``portal.provider.platform.lists``): sensors, and who may read them."""

from dataclasses import dataclass
from typing import Annotated, cast

import sqlalchemy as sa
from fastapi import Depends, Query
from sqlalchemy.dialects.postgresql import ARRAY, JSONB
from sqlmodel import col, select
from sqlmodel.sql.expression import SelectOfScalar

from portal.permissions import VIEW_MONITORING_MENU
from portal.provider.platform.db import SessionDep
from portal.provider.platform.errors import ApiError
from portal.provider.platform.lists import ListOf, S, Sorting, either
from portal.provider.platform.models import Sensor
from portal.provider.platform.scoping import services
from portal.provider.platform.security import Principal

TAGS_MAX = 50

# The requested order, then the screen's: group, device, priority descending, position
# (spec 2), the id last so pages never overlap.
SENSORS = ListOf(
    Sensor,
    Sorting(
        {
            "group": col(Sensor.group),
            "device": col(Sensor.device),
            "name": col(Sensor.name),
            "priority": col(Sensor.priority),
            "position": col(Sensor.position),
            "status": col(Sensor.status),
        },
        then=(
            (col(Sensor.group), False),
            (col(Sensor.device), False),
            (col(Sensor.priority), True),
            (col(Sensor.position), False),
            (col(Sensor.id), False),
        ),
    ),
    services(Sensor.company_id, Sensor.service_id),
    items=True,
)


def readable_sensors(principal: Principal) -> SelectOfScalar[Sensor]:
    """Every sensor, once the principal may read sensors (not yet scoped); 403 otherwise."""
    if not principal.allows(VIEW_MONITORING_MENU):
        raise ApiError(403)
    return select(Sensor)


def visible_sensors(principal: Principal) -> SelectOfScalar[Sensor]:
    """The sensors ``principal`` may read; 403 without the monitoring permission."""
    return SENSORS.scope(readable_sensors(principal), principal)


@dataclass(frozen=True)
class SensorFilters:
    tags: tuple[str, ...]
    # Tags are a JSON list, searched by each database's own operator.
    on_postgresql: bool

    def apply(self, statement: S) -> S:
        if self.tags:
            statement = statement.where(self._with_any_tag())
        return statement

    def _with_any_tag(self) -> sa.ColumnElement[bool]:
        """Sensors carrying at least one of the tags."""
        if self.on_postgresql:
            wanted = sa.cast(sa.literal(list(self.tags), ARRAY(sa.String)), ARRAY(sa.String))
            return cast(sa.ColumnElement[bool], sa.cast(col(Sensor.tags), JSONB).op("?|")(wanted))
        each = sa.func.json_each(col(Sensor.tags)).table_valued("value")
        return sa.exists(
            sa.select(sa.literal(1)).select_from(each).where(each.c.value.in_(self.tags))
        )


async def sensor_filters(
    db: SessionDep,
    tags: Annotated[
        list[str] | None,
        Query(alias="tags[]", max_length=TAGS_MAX, description="Sensors with any of these tags."),
    ] = None,
    tags_plain: Annotated[
        list[str] | None, Query(alias="tags", max_length=TAGS_MAX, include_in_schema=False)
    ] = None,
) -> SensorFilters:
    wanted = {tag.strip() for tag in either(tags, tags_plain) if tag.strip()}
    return SensorFilters(
        tags=tuple(sorted(wanted)), on_postgresql=db.get_bind().dialect.name == "postgresql"
    )


SensorFiltersDep = Annotated[SensorFilters, Depends(sensor_filters)]
