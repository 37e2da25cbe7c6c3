"""Each topic's figure states: frozen dataclasses, their parameters and their `.json` data."""
