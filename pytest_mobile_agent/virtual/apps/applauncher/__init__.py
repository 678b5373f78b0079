"""Simple App Launcher: `app` installs it; `main` and `settings` are its screens over `store`."""
