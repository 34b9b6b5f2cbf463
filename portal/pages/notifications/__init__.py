"""The Notifications page (issue 50, item 4): what e-mails the user takes, and a company's extra
notice addresses for its user managers."""
