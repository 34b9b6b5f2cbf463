"""Services as other screens link to them: the services list's address."""
