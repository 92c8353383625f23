"""``python -m memory_audit``."""

from __future__ import annotations

import sys

from memory_audit.cli import main

sys.exit(main())
