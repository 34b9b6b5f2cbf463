"""The scale data generator: a deterministic data set of any size in PostgreSQL (issue 3)."""

from bench.generate.plan import Plan
from bench.generate.run import NotPostgreSQL, generate

__all__ = ["NotPostgreSQL", "Plan", "generate"]
