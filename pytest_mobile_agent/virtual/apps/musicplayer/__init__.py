"""Simple Music Player: `app` installs it; `main`, `tracks`, `equalizer` and `settings` are its
screens over `store` and the scanned `library`."""
