"""The command line: argparse to one function per command, errors to exit codes.

Exit codes of ``audit``: 0 no findings, 1 findings, 2 usage or configuration
error (or no memory tree), 3 internal error.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path

from memory_audit import __version__
from memory_audit.errors import MemoryAuditError, describe
from memory_audit.model.finding import DIMENSION_IDS

Handler = Callable[[argparse.Namespace], int]
FORMATS = ("text", "markdown", "json", "html", "sarif", "github")


# Options whose values are project slugs, which start with "-" ("-home-me-app").
SLUG_OPTIONS = ("--project",)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(_join_slug_values(sys.argv[1:] if argv is None else list(argv)))
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return handler(args)
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
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    _add_audit(commands)
    _add_projects(commands)
    _add_config(commands)
    _add_daemon(commands)
    _add_report(commands)
    _add_service(commands)
    _add_status(commands)
    _add_doctor(commands)
    _add_review(commands)
    _add_dismiss(commands)
    _add_changelog(commands)
    _add_hook(commands)
    _add_claude(commands)
    _add_precommit(commands)
    return parser


def _config_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="configuration file (default: the user config folder's config.yaml)",
    )


def _add_audit(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("audit", help="audit memory trees and print the report")
    p.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="memory trees (or projects) to audit; default: every tree found",
    )
    p.add_argument(
        "--project",
        metavar="SLUG",
        help="audit ~/.claude/projects/SLUG/memory (a slug, or the project's path)",
    )
    p.add_argument(
        "--check",
        action="append",
        default=[],
        metavar="ID",
        help=f"run only this dimension (repeatable): {', '.join(DIMENSION_IDS)}",
    )
    p.add_argument("--format", choices=FORMATS, default="text", dest="output_format")
    p.add_argument("--output", "-o", type=Path, metavar="FILE", help="write the report to FILE")
    p.add_argument(
        "--profile",
        choices=("auto", "claude-code", "governed"),
        help="frontmatter schema profile (default: auto)",
    )
    p.add_argument(
        "--max-per-dimension",
        type=int,
        metavar="N",
        help="cap findings shown per dimension in text and markdown (default 50)",
    )
    p.add_argument(
        "--project-root",
        type=Path,
        metavar="DIR",
        help="the project the tree belongs to (default: located from transcripts)",
    )
    p.add_argument(
        "--transcripts",
        type=Path,
        metavar="DIR",
        help="folder of the project's session transcripts (*.jsonl), for `usage`",
    )
    _config_option(p)
    p.set_defaults(handler=_audit)


def _audit(args: argparse.Namespace) -> int:
    from memory_audit.commands import audit

    return audit.run(
        paths=args.paths,
        project=args.project,
        checks=args.check,
        output_format=args.output_format,
        output=args.output,
        config_path=args.config,
        profile=args.profile,
        max_per_dimension=args.max_per_dimension,
        out=sys.stdout,
        project_root=args.project_root,
        transcripts=args.transcripts,
    )


def _add_projects(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("projects", help="list the memory trees found")
    p.add_argument("--format", choices=("text", "json"), default="text", dest="output_format")
    _config_option(p)
    p.set_defaults(handler=_projects)


def _projects(args: argparse.Namespace) -> int:
    from memory_audit.commands import projects

    return projects.run(config_path=args.config, output_format=args.output_format, out=sys.stdout)


def _add_config(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("config", help="show, check or create the configuration file")
    p.add_argument("action", choices=("path", "show", "validate", "init"))
    p.add_argument("--force", action="store_true", help="init: overwrite an existing file")
    _config_option(p)
    p.set_defaults(handler=_config)


def _config(args: argparse.Namespace) -> int:
    from memory_audit.commands import config_command

    return config_command.run(
        action=args.action, config_path=args.config, force=args.force, out=sys.stdout
    )


def _add_daemon(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "daemon", help="run the service in the foreground (watch, weekly audit)"
    )
    p.add_argument(
        "--once",
        action="store_true",
        help="run the weekly audit now, write reports, notify and exit",
    )
    _config_option(p)
    p.set_defaults(handler=_daemon)


def _daemon(args: argparse.Namespace) -> int:
    from memory_audit.commands import daemon

    return daemon.run(config_path=args.config, once=args.once)


def _add_report(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("report", help="list or show the service's reports")
    p.add_argument("action", choices=("list", "show", "path"))
    p.add_argument("run", nargs="?", metavar="RUN", help="a run folder name (default: latest)")
    _config_option(p)
    p.set_defaults(handler=_report)


def _report(args: argparse.Namespace) -> int:
    from memory_audit.commands import report

    return report.run(
        action=args.action, run_name=args.run, config_path=args.config, out=sys.stdout
    )


def _add_service(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "service", help="install the service (systemd user unit / launchd agent)"
    )
    p.add_argument("action", choices=("install", "uninstall", "status", "logs"))
    p.add_argument(
        "--print",
        action="store_true",
        dest="print_only",
        help="install: print the rendered service file and change nothing",
    )
    p.add_argument(
        "--purge", action="store_true", help="uninstall: also delete the reports, state and logs"
    )
    _config_option(p)
    p.set_defaults(handler=_service)


def _service(args: argparse.Namespace) -> int:
    from memory_audit.commands import service

    return service.run(
        action=args.action,
        print_only=args.print_only,
        purge=args.purge,
        config_path=args.config,
        out=sys.stdout,
    )


def _add_status(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("status", help="what the service is doing (reads its state)")
    _config_option(p)
    p.set_defaults(handler=_status)


def _status(args: argparse.Namespace) -> int:
    from memory_audit.commands import status

    return status.run(config_path=args.config, out=sys.stdout)


def _add_doctor(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("doctor", help="check the set-up and explain how to fix it")
    p.add_argument("--notify-test", action="store_true", help="send a real test notification")
    _config_option(p)
    p.set_defaults(handler=_doctor)


def _doctor(args: argparse.Namespace) -> int:
    from memory_audit.commands import doctor

    return doctor.run(config_path=args.config, notify_test=args.notify_test, out=sys.stdout)


def _add_review(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("review", help="walk through the findings and fix them, one by one")
    p.add_argument(
        "paths", nargs="*", metavar="PATH", help="the memory tree (default: this project's)"
    )
    p.add_argument("--project", metavar="SLUG", help="the tree of ~/.claude/projects/SLUG")
    p.add_argument(
        "--from-report",
        type=Path,
        metavar="FILE",
        help="take the findings from this run@1 JSON report",
    )
    _config_option(p)
    p.set_defaults(handler=_review)


def _review(args: argparse.Namespace) -> int:
    from memory_audit.commands import review

    return review.run(
        paths=args.paths,
        project=args.project,
        from_report=args.from_report,
        config_path=args.config,
        inp=sys.stdin,
        out=sys.stdout,
    )


def _add_dismiss(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("dismiss", help="stop reporting a finding (by its fingerprint)")
    p.add_argument("fingerprint")
    p.add_argument("--reason", required=True, help="why (kept in the state)")
    _config_option(p)
    p.set_defaults(handler=_dismiss)


def _dismiss(args: argparse.Namespace) -> int:
    from memory_audit.commands import history

    return history.dismiss(
        fingerprint=args.fingerprint, reason=args.reason, config_path=args.config, out=sys.stdout
    )


def _add_changelog(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("changelog", help="the structural changelog of a project's memory")
    p.add_argument("paths", nargs="*", metavar="PATH")
    p.add_argument("--project", metavar="SLUG")
    _config_option(p)
    p.set_defaults(handler=_changelog)


def _changelog(args: argparse.Namespace) -> int:
    from memory_audit.commands import history

    return history.show_changelog(
        paths=args.paths, project=args.project, config_path=args.config, out=sys.stdout
    )


def _add_hook(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("hook", help="Claude Code hook entry points (reads the hook's JSON)")
    p.add_argument("event", choices=("session-start",))
    p.set_defaults(handler=_hook)


def _hook(args: argparse.Namespace) -> int:
    from memory_audit.commands import hook

    return hook.run(event=args.event, inp=sys.stdin, out=sys.stdout)


def _add_claude(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "claude", help="add or remove the SessionStart hook and /memory-audit skill"
    )
    p.add_argument("action", choices=("install", "uninstall"))
    p.set_defaults(handler=_claude)


def _claude(args: argparse.Namespace) -> int:
    from memory_audit.commands import claude

    return claude.run(action=args.action, out=sys.stdout)


def _add_precommit(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "pre-commit", help="audit the memory trees among FILES (pre-commit hook)"
    )
    p.add_argument("files", nargs="*", metavar="FILE")
    p.add_argument(
        "--check",
        action="append",
        default=[],
        metavar="ID",
        help="run only this dimension (repeatable; default: all but usage)",
    )
    p.add_argument("--format", choices=FORMATS, default="text", dest="output_format")
    _config_option(p)
    p.set_defaults(handler=_precommit)


def _precommit(args: argparse.Namespace) -> int:
    from memory_audit.commands import precommit

    return precommit.run(
        files=args.files,
        checks=args.check,
        output_format=args.output_format,
        config_path=args.config,
        out=sys.stdout,
    )
