"""The system image's own apps, beside the Simple Mobile Tools ones: the home screen (Launcher3),
the intent resolver (package `android`), Settings, the document picker (DocumentsUI), ADB
Keyboard and the Chrome and Camera stubs. One module each."""
