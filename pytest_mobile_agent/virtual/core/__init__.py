"""The model core every layer above uses: the device's files, configuration, clock, settings, log and TCP ports."""
