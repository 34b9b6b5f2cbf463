"""The Python floor: how fast any Python server on this machine could answer an endpoint."""
