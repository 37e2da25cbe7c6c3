from rnntui.cli import main

if __name__ == "__main__":  # a lab's spawned child imports this module too
    raise SystemExit(main())
