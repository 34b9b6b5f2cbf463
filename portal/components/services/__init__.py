"""Services as lists show them: the row (card or table) and the type filter's options, and the
services list's address, which other screens link to."""
