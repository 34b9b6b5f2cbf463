"""The user form and the delete confirmation, shared by the users list and the user profile:
each screen subclasses their states and says what follows a save or a delete."""
