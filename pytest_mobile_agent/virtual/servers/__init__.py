"""Servers apps run on the device, reached through adb: the uiautomator2 server."""
