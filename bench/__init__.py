"""The scale data generator (``bench.generate``) and the load benchmark (``bench.run``)."""
