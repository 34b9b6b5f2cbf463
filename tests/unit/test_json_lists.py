"""The JSON lists' SQL on both databases the provider runs on: the lists themselves are checked
through the services API on SQLite and PostgreSQL (tests/provider/test_services_detail.py)."""

import json

import pytest
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from portal.provider.platform.json_lists import json_list

_metadata = sa.MetaData()
_parents = sa.Table("parents", _metadata, sa.Column("id", sa.Integer, primary_key=True))
_children = sa.Table(
    "children",
    _metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("parent_id", sa.ForeignKey("parents.id")),
    sa.Column("name", sa.String),
    sa.Column("done", sa.Boolean),
)


def _statement() -> sa.Select[tuple[int, object]]:
    children = json_list(
        {"name": _children.c.name, "done": _children.c.done},
        _children.c.parent_id == _parents.c.id,
    )
    return sa.select(_parents.c.id, children).order_by(_parents.c.id)


def test_each_database_gets_its_own_functions() -> None:
    pg = str(_statement().compile(dialect=postgresql.dialect()))
    assert "coalesce(json_agg(json_build_object('name', children.name, 'done'" in pg
    assert "'[]'::json" in pg
    lite = str(_statement().compile(dialect=sqlite.dialect()))
    assert "json_group_array(json_object('name', children.name, 'done'" in lite


def test_sqlite_lists_each_parents_rows_and_none_as_empty() -> None:
    engine = sa.create_engine("sqlite://")
    _metadata.create_all(engine)
    with engine.begin() as db:
        db.execute(_parents.insert(), [{"id": 1}, {"id": 2}])
        db.execute(
            _children.insert(),
            [
                {"id": 10, "parent_id": 1, "name": "a", "done": True},
                {"id": 11, "parent_id": 1, "name": "it's", "done": False},
            ],
        )
        rows = db.execute(_statement()).all()
    lists = {parent: sorted(children, key=lambda row: row["name"]) for parent, children in rows}
    assert lists == {1: [{"name": "a", "done": 1}, {"name": "it's", "done": 0}], 2: []}
    assert json.dumps(lists[1])  # plain JSON values, ready for the response models


def test_a_field_name_must_be_an_identifier() -> None:
    with pytest.raises(ValueError, match="not a field name"):
        json_list({"name') || ('": _children.c.name}, _children.c.parent_id == _parents.c.id)
