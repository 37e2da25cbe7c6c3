"""One Textual Screen per topic; each turns its figures' states into widgets."""
