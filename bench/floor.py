"""The read-and-parse floor: what any audit of a tree must at least do, as a whole process.

Walk the tree, read every ``.md`` file, decode it, and parse its frontmatter with libyaml's
C loader. No checks, no report.

python bench/floor.py TREE
"""

from __future__ import annotations

import os
import sys

import yaml


def main(root: str) -> int:
    parsed = 0
    for folder, _, names in os.walk(root):
        for name in names:
            if name.endswith(".md"):
                with open(os.path.join(folder, name), "rb") as handle:
                    text = handle.read().decode("utf-8", "replace")
                if text.startswith("---\n") and (end := text.find("\n---", 4)) != -1:
                    yaml.load(text[4:end], Loader=yaml.CSafeLoader)
                    parsed += 1
    return parsed


if __name__ == "__main__":
    print(main(sys.argv[1]))
