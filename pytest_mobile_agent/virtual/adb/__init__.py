"""The adb side: adbd, its transport, packets and services, sync, reverse, console, registration."""
