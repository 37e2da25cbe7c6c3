"""rnntui: step through how sequence models went from the recurrent network to attention."""

__version__ = "0.1.0"
