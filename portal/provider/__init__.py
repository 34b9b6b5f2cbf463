"""The embedded reference implementation of the provider API (DESIGN section 2).

FastAPI and SQLModel only: nothing here imports Reflex or the portal's UI, client or states.
"""
