#!/bin/sh
# Instructions of one whole audit, which load on the machine does not move: the rows of
# docs/benchmarks.md that compare two commits' sweep and 10,000-file audit.
#
#   bench/cg.sh SRC TREE [--check secrets]
#
# SRC is a source tree (a checkout, or `git archive <commit> | tar -x -C SRC`), TREE a memory
# tree: the sweep's (`python bench/corpus.py TREE >/dev/null`, bench.corpus.secret_corpus)
# with `--check secrets`, or the 10,000-file tree (`python bench/generate.py TREE --files
# 10000 --seed 7`) without. Runs `memory-audit audit --format json -o /dev/null TREE` from
# SRC under `valgrind --tool=callgrind --trace-children=yes`, in a fresh empty HOME, with
# SRC's bytecode compiled first, and prints the processes' instruction totals summed, in G.
set -eu
[ $# -ge 2 ] || { echo "usage: bench/cg.sh SRC TREE [--check NAME]" >&2; exit 2; }
src=$(cd "$1" && pwd)
tree=$2
shift 2
python=${PYTHON:-$(dirname "$0")/../.venv/bin/python}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/home"
"$python" -m compileall -q "$src/src" >/dev/null
HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_STATE_HOME="$work/home/.state" \
	XDG_CACHE_HOME="$work/home/.cache" XDG_DATA_HOME="$work/home/.data" \
	CLAUDE_CONFIG_DIR="$work/home/.claude" PYTHONPATH="$src/src" \
	valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$work/cg.%p" \
	"$python" -m memory_audit audit "$@" --format json -o /dev/null "$tree" \
	>/dev/null 2>"$work/valgrind.log" || [ $? -le 1 ]
# each process's output gives its total once as "summary: N" in its header (and again as
# "totals: N" at its end): summed once a process
awk '/^summary:/ { sum += $2 } END { printf "%.4f G\n", sum / 1e9 }' "$work"/cg.*
