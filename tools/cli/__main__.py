"""`python -m tools.cli ARGS` is `wargame ARGS`."""

from tools.cli.commands import main

raise SystemExit(main())
