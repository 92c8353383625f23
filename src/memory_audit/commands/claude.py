"""``memory-audit claude install|uninstall``: the SessionStart hook and the /memory-audit skill."""

from __future__ import annotations

import contextlib
from typing import TextIO

from memory_audit.atomic import write_atomic
from memory_audit.install import claude


def run(*, action: str, out: TextIO) -> int:
    settings_file = claude.settings_path()
    settings = claude.load_settings(settings_file)  # refuses broken JSON before any change
    skill = claude.skill_path()
    if action == "install":
        earlier = claude.hook_programs(settings)  # an earlier install's hook is updated
        if claude.with_hook(settings, claude.hook_command()):
            backup = claude.save_settings(settings_file, settings)
            out.write(
                f"{'updated' if earlier else 'added'} the SessionStart hook in {settings_file}"
                + (f" (backup: {backup.name})\n" if backup else "\n")
            )
        else:
            out.write(f"the SessionStart hook is already in {settings_file}\n")
        text = claude.skill_text()
        if skill.exists() and skill.read_text(encoding="utf-8") == text:
            out.write(f"the /memory-audit skill is already installed: {skill}\n")
        elif not skill.exists() or claude.skill_is_ours(skill):
            skill.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(skill, text, mode=0o644)
            out.write(f"installed the /memory-audit skill: {skill}\n")
        else:
            out.write(f"{skill} exists and is not ours: left as it is\n")
        return 0
    if claude.without_hook(settings):
        backup = claude.save_settings(settings_file, settings)
        out.write(
            f"removed the SessionStart hook from {settings_file} (backup: "
            f"{backup.name if backup else '-'})\n"
        )
    if claude.skill_is_ours(skill):
        skill.unlink()
        with contextlib.suppress(OSError):
            skill.parent.rmdir()
        out.write(f"removed {skill}\n")
    return 0
