"""``python -m generator.cli``: the same command as the ``citgen`` script, where the script is not installed."""

from __future__ import annotations

import sys

from . import main

sys.exit(main())
