"""GitHub Actions workflow commands: ``::warning file=…,line=…,title=…::message``.

Secrets are errors, judgment calls notices, the rest warnings. Values are
escaped the way the runner expects (``%``, ``\\r``, ``\\n`` everywhere; ``:``
and ``,`` in properties too).
"""

from __future__ import annotations

from memory_audit.model.run import Run
from memory_audit.report import wording
from memory_audit.report.sarif import artifact_uri, level

COMMAND = {"error": "error", "warning": "warning", "note": "notice"}


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def render(run: Run) -> str:
    lines = []
    for report in run.reports:
        for finding in report.findings:
            props = [f"file={_property(artifact_uri(report, finding.path))}"]
            if finding.line:
                props.append(f"line={finding.line}")
            props.append(f"title={_property('memory-audit: ' + run.title(finding.dimension))}")
            command = COMMAND[level(run, finding)]
            lines.append(f"::{command} {','.join(props)}::{_data(wording.sentence(finding))}")
        lines += [
            f"::error title={_property('memory-audit: ' + wording.display_root(report.root))}"
            f"::{_data(line)}"
            for line in wording.not_run_lines(report, run)
        ]
    return "\n".join(lines) + ("\n" if lines else "")
