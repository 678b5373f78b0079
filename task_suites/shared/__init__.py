"""What the suites share: the ten apps (apps.py), reading their saved state back (reading.py)
and the preconditions several tasks seed (seeds.py). No suite imports another suite's modules."""
