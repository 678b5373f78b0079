"""What the apps draw with: the real apps' string tables and their date formats, by locale."""
