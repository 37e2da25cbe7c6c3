"""The command palette as a user runs a command in it, for Pilot tests.

    from commands import run_command
    await run_command(pilot, "set w_h")   # ctrl+p, the words, a pause for the matches, enter, a pause
"""


async def run_command(pilot, words: str) -> None:
    """ctrl+p, `words` typed, the palette's matches waited for, enter, and the command's effect waited for."""
    await pilot.press("ctrl+p", *words)
    await pilot.pause(0.3)
    await pilot.press("enter")
    await pilot.pause(0.2)
