"""The UI toolkit and app framework: views, layout, widgets, activities, windows, drawing."""
