"""The command line: a table of commands, argparse, and errors to exit codes.

Each command is one row of :data:`COMMANDS`: its name, help, arguments, and
the ``module:function`` that runs it. The function receives the parsed
options as keyword arguments (each option's ``dest`` is the parameter's name)
plus the streams it asks for; it is imported only when its command runs, so
that ``hook session-start`` and ``--help`` stay fast.

Exit codes of ``audit``: 0 no findings, 1 findings, 2 usage or configuration
error (or no memory tree), 3 internal error.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memory_audit import __version__
from memory_audit.atomic import UNDECODABLE
from memory_audit.errors import MemoryAuditError, describe
from memory_audit.report import RENDERER_MODULES

# Options whose values are project slugs, which start with "-" ("-home-me-app").
SLUG_OPTIONS = ("--project",)
PROFILES = ("auto", "claude-code", "governed")


def _max_per_dimension(text: str) -> int:
    """``--max-per-dimension``: a positive number, or ``all``."""
    if text.strip().lower() == "all":
        return sys.maxsize
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number or `all`")
    return value


@dataclass(frozen=True)
class Arg:
    flags: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)


def arg(*flags: str, **options: Any) -> Arg:
    return Arg(flags, options)


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    target: str  # "module:function" under memory_audit.commands
    args: tuple[Arg, ...] = ()
    streams: tuple[str, ...] = ("out",)  # which of inp/out the function takes
    config: bool = True  # takes --config
    epilog: Callable[[], str] | None = None  # text after the options, made only for --help


def dimension_list() -> str:
    """The ids ``--check`` takes, from the registry, in report order."""
    # Imported here: the registry costs every other command's start ~25 ms for nothing.
    from memory_audit.checks import DIMENSIONS

    rows = [f"  {d.id:<16} {d.title}" for d in DIMENSIONS]
    return f"dimensions ({len(rows)}; --check ID), in report order:\n" + "\n".join(rows)


class HelpParser(argparse.ArgumentParser):
    """A parser whose epilog is computed only when its help is printed."""

    lazy_epilog: Callable[[], str] | None = None

    def format_help(self) -> str:
        if self.lazy_epilog is not None and self.epilog is None:
            self.epilog = self.lazy_epilog()
        return super().format_help()


class TranscriptsOption(argparse.Action):
    """``--transcripts DIR`` names the transcripts folder; ``--transcripts`` alone asks for
    the secret scan of every session transcript (``scan_transcripts``)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        if values is None:
            namespace.scan_transcripts = True
        else:
            setattr(namespace, self.dest, Path(values))


CONFIG = arg(
    "--config",
    dest="config_path",
    type=Path,
    metavar="FILE",
    help="configuration file (default: the user config folder's config.yaml)",
)
CHECK = arg(
    "--check",
    dest="checks",
    action="append",
    default=[],
    metavar="ID",
    help="run only this dimension (repeatable; the ids are listed below)",
)
ALL = arg(
    "--all",
    dest="every",
    action="store_true",
    help="every tree (default: the project this folder is in, else every tree)",
)
FORMAT = arg("--format", choices=tuple(RENDERER_MODULES), default="text", dest="output_format")

COMMANDS: tuple[Command, ...] = (
    Command(
        "audit",
        "audit memory trees and print the report",
        "audit:run",
        (
            arg("paths", nargs="*", metavar="PATH", help="memory trees (or projects) to audit"),
            arg(
                "--project",
                metavar="SLUG",
                help="a project's tree: its slug, or its path (`.`: this folder's project)",
            ),
            ALL,
            CHECK,
            FORMAT,
            arg(
                "--indent",
                type=int,
                metavar="N",
                help="json: indent nested values by N spaces (default: compact, one line)",
            ),
            arg(
                "--pretty",
                action="store_const",
                const=2,
                dest="indent",
                help="json: indented for people (same as --indent 2)",
            ),
            arg("--output", "-o", type=Path, metavar="FILE", help="write the report to FILE"),
            arg("--profile", choices=PROFILES, help="frontmatter schema profile (default: auto)"),
            arg(
                "--max-per-dimension",
                type=_max_per_dimension,
                metavar="N|all",
                help="cap findings shown per dimension in text and markdown (default 50)",
            ),
            arg("-q", "--quiet", action="store_true", help="text: only the summary screen"),
            arg(
                "-v",
                "--verbose",
                action="store_true",
                help="text: also what was skipped, and why",
            ),
            arg(
                "--color",
                choices=("auto", "always", "never"),
                default="auto",
                help="colour by severity (auto: on a terminal, unless NO_COLOR is set)",
            ),
            arg(
                "--project-root",
                type=Path,
                metavar="DIR",
                help="the project the tree belongs to (default: located from transcripts)",
            ),
            arg(
                "--transcripts",
                nargs="?",
                action=TranscriptsOption,
                metavar="DIR",
                help="with DIR: the folder of the project's session transcripts (*.jsonl), for "
                "`usage`; alone: scan the session transcripts for secrets (nothing is written)",
            ),
        ),
        epilog=dimension_list,
    ),
    Command(
        "projects",
        "list the memory trees found",
        "projects:run",
        (arg("--format", choices=("text", "json"), default="text", dest="output_format"),),
    ),
    Command(
        "config",
        "show, check or create the configuration file",
        "config_command:run",
        (
            arg("action", choices=("path", "show", "validate", "init")),
            arg("--force", action="store_true", help="init: overwrite an existing file"),
        ),
    ),
    Command(
        "daemon",
        "run the service in the foreground (watch, weekly audit)",
        "daemon:run",
        (
            arg(
                "--once",
                action="store_true",
                help="run the weekly audit now, write reports, notify and exit",
            ),
        ),
        streams=(),
    ),
    Command(
        "report",
        "list or show the service's reports",
        "report:run",
        (
            arg("action", choices=("list", "show", "path")),
            arg("run_name", nargs="?", metavar="RUN", help="a run folder name (default: latest)"),
        ),
    ),
    Command(
        "service",
        "install the service (systemd user unit / launchd agent)",
        "service:run",
        (
            arg("action", choices=("install", "uninstall", "status", "logs")),
            arg(
                "--print",
                action="store_true",
                dest="print_only",
                help="install: print the rendered service file and change nothing",
            ),
            arg(
                "--purge",
                action="store_true",
                help="uninstall: also delete the reports, state, journal and logs (asks first)",
            ),
            arg("--yes", action="store_true", help="--purge: delete without asking (scripts)"),
        ),
        streams=("inp", "out"),
    ),
    Command(
        "loaded",
        "show what a session receives from MEMORY.md, and what recall can see",
        "loaded:run",
        (
            arg("project", nargs="?", metavar="PROJECT", help="tree, project folder or slug"),
            arg("--format", choices=("text", "json"), default="text", dest="output_format"),
        ),
    ),
    Command("status", "what the service is doing (reads its state)", "status:run"),
    Command(
        "doctor",
        "check the set-up and explain how to fix it",
        "doctor:run",
        (arg("--notify-test", action="store_true", help="send a real test notification"),),
    ),
    Command(
        "review",
        "walk through the findings and fix them, one by one",
        "review:run",
        (
            arg(
                "paths", nargs="*", metavar="PATH", help="the memory tree (default: this project's)"
            ),
            arg("--project", metavar="SLUG", help="the tree of ~/.claude/projects/SLUG"),
            ALL,
            arg(
                "--from-report",
                type=Path,
                metavar="FILE",
                help="take the findings from this run@1 JSON report",
            ),
        ),
        streams=("inp", "out"),
    ),
    Command(
        "dismiss",
        "stop reporting a finding (by its fingerprint, as shown in [brackets])",
        "history:dismiss",
        (
            arg("fingerprint", nargs="?", help="the finding's fingerprint (8 digits suffice)"),
            arg("paths", nargs="*", metavar="PATH", help="the tree (default: as for audit)"),
            arg("--project", metavar="SLUG", help="the tree of this project"),
            ALL,
            arg("--reason", help="why (kept in the state)"),
            arg("--list", action="store_true", dest="list_only", help="list the dismissals"),
        ),
    ),
    Command(
        "undismiss",
        "report a dismissed finding again",
        "history:undismiss",
        (arg("fingerprint"),),
    ),
    Command(
        "changelog",
        "the structural changelog of a project's memory",
        "history:show_changelog",
        (arg("paths", nargs="*", metavar="PATH"), arg("--project", metavar="SLUG"), ALL),
    ),
    Command(
        "history",
        "what changed in memory, when and by whom (the service's journal)",
        "timeline:run",
        (
            arg(
                "target",
                nargs="?",
                metavar="TREE|FILE",
                help="a memory tree or one file (default: this project's tree, else every tree)",
            ),
            ALL,
            arg("--since", metavar="TIME", help="only changes from then on (2026-11-30[T14:00])"),
            arg("--diff", action="store_true", help="show each change as a unified diff"),
            arg("--format", choices=("text", "json"), default="text", dest="output_format"),
            arg(
                "--purge",
                metavar="FILE",
                help="drop every version of FILE from the journal (asks first)",
            ),
            arg("--yes", action="store_true", help="--purge: drop without asking (scripts)"),
        ),
        streams=("inp", "out"),
    ),
    Command(
        "restore",
        "bring back a journaled version of a file, or a whole tree as it was",
        "restore:run",
        (
            arg("target", metavar="FILE|TREE"),
            arg("--at", metavar="TIME", help="the version in force at TIME"),
            arg("--version", type=int, metavar="N", help="version N (see `memory-audit history`)"),
            arg("--tree", action="store_true", help="restore every file of the tree as at --at"),
        ),
        streams=("inp", "out"),
    ),
    Command(
        "hook",
        "Claude Code hook entry points (reads the hook's JSON)",
        "hook:run",
        (arg("event", choices=("session-start",)),),
        streams=("inp", "out"),
        config=False,
    ),
    Command(
        "claude",
        "add or remove the SessionStart hook and /memory-audit skill",
        "claude:run",
        (arg("action", choices=("install", "uninstall")),),
        config=False,
    ),
    Command(
        "pre-commit",
        "audit the memory trees among FILES (pre-commit hook)",
        "precommit:run",
        (
            arg("files", nargs="*", metavar="FILE"),
            arg(
                "--check",
                dest="checks",
                action="append",
                default=[],
                metavar="ID",
                help="run only this dimension (repeatable; default: all but usage)",
            ),
            FORMAT,
        ),
        epilog=dimension_list,
    ),
)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else list(argv)
    if arguments == ["hook", "session-start"]:
        # memory_audit.__main__ answers this before importing this module; here for callers
        # of main() in the same process. Every session start waits for it: no parser.
        return _call("hook:run", {"event": "session-start"}, ("inp", "out"))
    parser = build_parser()
    args = vars(parser.parse_args(_join_slug_values(arguments)))
    command: Command | None = args.pop("command", None)
    if command is None:
        parser.print_help(sys.stderr)
        return 2
    return _call(command.target, args, command.streams)


def _call(target: str, kwargs: dict[str, Any], streams: Sequence[str]) -> int:
    module_name, _, function = target.partition(":")
    for stream in (sys.stdout, sys.stderr):  # a file name's undecodable byte prints as \xff
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors=UNDECODABLE)
    streams_for = {"inp": sys.stdin, "out": sys.stdout}
    try:
        module = importlib.import_module(f"memory_audit.commands.{module_name}")
        result: int = getattr(module, function)(
            **kwargs, **{name: streams_for[name] for name in streams}
        )
        return result
    except MemoryAuditError as exc:
        print(f"memory-audit: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return 141
    except Exception as exc:
        return _internal_error(exc)


def _join_slug_values(argv: list[str]) -> list[str]:
    """``--project -home-me-app`` would read as two options; make it ``--project=-home-me-app``."""
    joined: list[str] = []
    tokens = iter(argv)
    for token in tokens:
        if token in SLUG_OPTIONS:
            value = next(tokens, None)
            joined.append(token if value is None else f"{token}={value}")
        else:
            joined.append(token)
    return joined


def _internal_error(exc: Exception) -> int:
    print(f"memory-audit: internal error: {describe(exc)}", file=sys.stderr)
    if os.environ.get("MEMORY_AUDIT_DEBUG"):
        traceback.print_exc()
    else:
        print("memory-audit: set MEMORY_AUDIT_DEBUG=1 for the traceback", file=sys.stderr)
    return 3


def _silence_stdout() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memory-audit",
        description="Audit Claude Code memory trees; run the weekly audit as a service.",
    )
    parser.add_argument("--version", action="version", version=f"memory-audit {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", parser_class=HelpParser)
    for command in COMMANDS:
        sub = commands.add_parser(
            command.name, help=command.help, formatter_class=argparse.RawDescriptionHelpFormatter
        )
        sub.lazy_epilog = command.epilog
        for argument in command.args:
            sub.add_argument(*argument.flags, **argument.options)
        if command.config:
            sub.add_argument(*CONFIG.flags, **CONFIG.options)
        sub.set_defaults(command=command)
    return parser
