"""Reusable views. A widget draws what it is given and knows no topic."""
