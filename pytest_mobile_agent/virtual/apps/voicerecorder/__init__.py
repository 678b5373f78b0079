"""Simple Voice Recorder: `app` installs it; `main` and `settings` are its screens over `store`."""
