"""Simple-Commons: the screens, dialogs, menus and settings rows every Simple Mobile Tools app
shares, one module for each (the real library's activities/, dialogs/ and views/)."""
