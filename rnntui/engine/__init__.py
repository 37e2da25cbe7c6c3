"""Pure computation (numpy). Knows nothing of Textual, Rich or the rest of rnntui."""
