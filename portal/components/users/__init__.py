"""Users as the list shows them (the row, the list's address), and the user form and delete
confirmation, shared by the users list and the user profile: each screen subclasses their
states and says what follows a save or a delete."""
