"""The audit log as its screen lists it: the row and the list's address."""
