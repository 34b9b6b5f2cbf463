"""Tickets as lists show them: the row, the list's address and state, the table."""
