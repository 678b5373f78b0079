"""Simple File Manager Pro: `app` installs it; `main`, `editor`, `favorites` and `settings` are its
screens over `store`, the files of shared storage."""
