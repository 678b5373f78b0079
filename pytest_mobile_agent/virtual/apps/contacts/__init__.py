"""Simple Contacts Pro: `app` installs it; `main`, `contact` and `settings` are its screens over
`store`, the contacts provider's rows."""
