"""Simple Calculator: `app` installs it; `main`, `converter` and `settings` are its screens over
`store` and the `engine`."""
