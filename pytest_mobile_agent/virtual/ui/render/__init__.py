"""Rendering: the screen's picture, drawn with Pillow from the window system's laid-out view trees.

From the top down: renderer (frames to cached PNG, JPEG and RGBA), painter (each view by its
kind, the system bars) and png (the encoder), month_canvas (Simple Calendar's month grid),
canvas (the drawing primitives), glyphs (icons by name) and text (fonts, measuring, wrapping),
masks (antialiased shapes), colors (the palette and colour names).
"""
