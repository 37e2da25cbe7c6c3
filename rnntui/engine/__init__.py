"""Pure computation (numpy; torch only in the lab modules). Knows nothing of Textual or Rich, nor of the
figures and screens: of rnntui it imports only state, files and lazy."""


def N_(message: str) -> str:
    """Marks a message for the translators' catalogue (as rnntui.i18n.N_, which the engine may not
    import); the layer that shows it translates it there."""
    return message
