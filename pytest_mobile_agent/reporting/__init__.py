"""Where results go: the JSON-lines results file, the terminal table, trajectories on disk."""
