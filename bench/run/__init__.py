"""The load benchmark: the built portal in production mode on the generated data set, measured
with wrk beside its database and HTTP limits (docs/decisions/benchmark.md)."""
