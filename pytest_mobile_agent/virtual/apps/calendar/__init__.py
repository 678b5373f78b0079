"""Simple Calendar Pro: `app` installs it; `main`, `editors` and `settings` are its screens over `store`."""
