from rnntui.cli import main

raise SystemExit(main())
