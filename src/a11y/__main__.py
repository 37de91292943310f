from a11y.cli import main

raise SystemExit(main())
