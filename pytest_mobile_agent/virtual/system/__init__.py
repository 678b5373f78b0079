"""The Android system model: windows, packages, intents, providers, accessibility, snapshots."""
