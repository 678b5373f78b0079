"""Warm start: xdist workers and their virtual devices forked from one warm process.

A fresh worker is a new Python that imports pytest, every plugin and this package, and a
fresh virtual device another that imports the device model: about a CPU-second the pair, so
on a small machine `-n 32` spent longer starting than running. Instead the controller forks
one warm process (server.py) once pytest has loaded the plugins, and that process imports the
rest while it waits. Each worker is forked from it through a launcher that xdist runs as the
worker's python (launcher.py), and each worker's device is forked from it too (process.py,
controller.py). Workers are still separate processes with their own pytest session,
collection and device: only the imports are shared.
"""
