"""Each topic's figure states: frozen dataclasses, their parameters and their `.json` data."""
from rnntui.i18n import N_


def floats(values) -> tuple[float, ...]:
    """A row of numbers (a list, an array) as a tuple of Python floats, for a readings record."""
    return tuple(map(float, values))

# the parameters' labels that are words (a label is its name where none is given), for the catalogue:
# shown in the reader's language (Param.said); symbols (W_h, d_k, γ) stay as they are
LABELS = (N_("act"), N_("cell"), N_("context"), N_("curve"), N_("distance"), N_("distractors"), N_("family"),
          N_("head"), N_("hop"), N_("input std"), N_("layers"), N_("mask"), N_("mode"), N_("model"), N_("n tokens"),
          N_("PE added"), N_("position"), N_("query"), N_("reads"), N_("sample"), N_("scores"), N_("scoring"),
          N_("seed"), N_("stage"), N_("step"), N_("steps"), N_("threshold"), N_("tokens"), N_("tokens n"),
          N_("wallclock"), N_("weights"), N_("width"), N_("window k"))
