"""Servers the device runs for host clients, reached through adb: the uiautomator2 server."""
