"""Pure computation (numpy). Knows nothing of Textual, Rich or the rest of rnntui."""


def N_(message: str) -> str:
    """Marks a message for the translators' catalogue (as rnntui.i18n.N_, which the engine may not
    import); the layer that shows it translates it there."""
    return message
