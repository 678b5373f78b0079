"""Simple Notes Pro: `app` installs it; `main` and `settings` are its screens, `dialogs` the main
screen's dialogs, over `store`."""
