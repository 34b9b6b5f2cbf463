"""The value of a Prometheus sample in this test process (the single-process registry)."""

from prometheus_client import REGISTRY


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0
