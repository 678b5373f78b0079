"""The shell's language, a POSIX-ish subset of Android's mksh: syntax tree, parser, expansion,
interpreter and builtins. It runs commands from the registry and imports none of them."""
