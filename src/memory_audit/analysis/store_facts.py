"""What a report says about a store beyond its findings: whose memory it is, whether
Claude Code's settings (or, for an agent's store, its project's agent file) freeze it, and
how far back its session transcripts reach."""

from __future__ import annotations

from dataclasses import dataclass

from memory_audit.analysis.tree_home import unloaded_by_its_agent
from memory_audit.model.stores import AgentStore, TranscriptSpan
from memory_audit.sources.transcript_span import transcript_span
from memory_audit.tree import claude_settings
from memory_audit.tree.snapshot import MemoryTree


@dataclass(frozen=True)
class StoreFacts:
    agent: AgentStore | None = None
    frozen: str | None = None
    settings_notes: tuple[str, ...] = ()
    transcripts: TranscriptSpan | None = None


def store_facts(tree: MemoryTree) -> StoreFacts:
    """The settings are those of the tree's project (the user's alone when it has none).
    ``autoMemoryEnabled`` governs auto memory: an agent's memory follows its agent's
    ``memory:`` field instead, so it is frozen when the project's file for that agent keeps
    no memory in the store's scope."""
    location = tree.location
    settings = claude_settings.resolve(location.project_path)
    span = None
    if location.transcripts_dir is not None:
        span = transcript_span(location.transcripts_dir, tree.taken_at, settings.cleanup_days)
    frozen = settings.frozen_by if location.agent is None else unloaded_by_its_agent(tree)
    return StoreFacts(
        agent=location.agent,
        frozen=frozen,
        settings_notes=settings.notes,
        transcripts=span,
    )
