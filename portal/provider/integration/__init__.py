"""The integration API: how a provider's own systems load and keep its estate in sync.

Idempotent upserts keyed on the provider's references, one module per kind, all validated in
bulk before anything is written (``batch``), and the files that go with them (``files``). The
API tokens that open it are checked with every request (``portal.provider.platform.api_tokens``).
The HTTP routes (``routes/``: batches, files, tokens) and the CLI's ``import`` command call the
same functions. Like every domain it imports only platform and itself.
"""
