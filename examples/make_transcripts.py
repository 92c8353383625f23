"""Write ten Claude Code-style session transcripts for the demo's `usage` dimension.

    python examples/make_transcripts.py examples/drifted-memory OUT_DIR

Transcripts carry absolute paths, so they are generated for wherever the example tree
lives rather than committed. Every session reads most memories; one is never read.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

NEVER_READ = "reference/style_guide.md"
# The sessions' age, not their date: the demo's report (and README's copy of it) says the
# transcripts reach back 71 days, past cleanupPeriodDays, on whatever day it runs. An hour
# over the whole days, so the seconds the demo takes never make it 70.
AGE_SECONDS = 71 * 86_400 + 3_600


def main(tree: Path, out: Path) -> None:
    tree = tree.resolve()
    out.mkdir(parents=True, exist_ok=True)
    memories = sorted(
        p for p in tree.rglob("*.md") if p.name != "MEMORY.md" and "sessions" not in p.parts
    )
    readable = [p for p in memories if p.relative_to(tree).as_posix() != NEVER_READ]
    for number in range(10):
        lines = [
            {
                "type": "user",
                "cwd": str(tree.parent / "ledgerly"),
                "sessionId": f"demo-{number}",
                "message": {"role": "user", "content": "Let's keep working on billing."},
            }
        ]
        for path in readable[number % 3 :: 2] + readable[:3]:
            lines.append(
                {
                    "type": "assistant",
                    "sessionId": f"demo-{number}",
                    "message": {
                        "role": "assistant",
                        "content": [
                            {
                                "type": "tool_use",
                                "id": f"t{number}",
                                "name": "Read",
                                "input": {"file_path": str(path)},
                            }
                        ],
                    },
                }
            )
        transcript = out / f"demo-{number:02}.jsonl"
        transcript.write_text("".join(json.dumps(line) + "\n" for line in lines))
        stamp = time.time() - AGE_SECONDS + number
        os.utime(transcript, (stamp, stamp))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
