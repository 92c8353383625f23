"""``python -m memory_audit`` and the ``memory-audit`` command.

``hook session-start`` runs at every Claude Code session start: it is
answered here, before the CLI (argparse, the command table, the renderers) is
imported at all. The installed hook calls :func:`main` through ``python -P -c``
(``install/claude.py``): ``sys.argv[1:]`` is the same as under ``-m``.
"""

from __future__ import annotations

import sys


def main() -> int:
    if sys.argv[1:] == ["hook", "session-start"]:
        from memory_audit.commands.hook import run

        return run(event="session-start", inp=sys.stdin, out=sys.stdout)
    from memory_audit.cli import main as cli_main

    return cli_main()


if __name__ == "__main__":
    sys.exit(main())
