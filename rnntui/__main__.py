import gc

if __name__ == "__main__":
    # No cyclic garbage collection until the app's first frame (RnnApp turns it back on; every other
    # command at once): starting allocates many objects and few cycles, and the collector's passes
    # over them are ~7% of the start. Not in a lab's spawned child, which imports this module as
    # __mp_main__.
    gc.disable()

from rnntui.cli import main

if __name__ == "__main__":  # a lab's spawned child imports this module too
    raise SystemExit(main())
