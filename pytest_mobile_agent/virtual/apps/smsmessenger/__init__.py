"""Simple SMS Messenger: `app` installs it; `main`, `thread`, `settings` and `blocked` are its
screens over `store`."""
