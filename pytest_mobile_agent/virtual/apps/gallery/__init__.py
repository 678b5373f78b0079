"""Simple Gallery Pro: `app` installs it; `main`, `viewer` and `settings` are its screens, `dialogs`
what the folders and media screens share, over `store`."""
