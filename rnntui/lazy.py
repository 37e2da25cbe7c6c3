"""numpy, imported on first use: `np = lazy.numpy(globals())` in a module the first frame imports.

The first screen (recurrence/track) draws without numpy, so the app's first frame does not pay its
import (~0.1 s); the first attribute looked up on `np` imports numpy and rebinds the module's global
`np` to it, so later uses cost nothing extra."""
from __future__ import annotations


class _Numpy:
    def __init__(self, namespace: dict) -> None:
        self._namespace = namespace

    def __getattr__(self, name: str):
        import numpy

        self._namespace["np"] = numpy
        return getattr(numpy, name)


def numpy(namespace: dict):
    return _Numpy(namespace)
