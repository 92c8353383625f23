"""Fixes, applied only in the interactive session, one confirmed decision at a time."""
