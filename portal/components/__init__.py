"""Components shared by the pages: layout, navigation, messages, dialogs."""
