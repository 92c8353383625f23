"""Prices usage events; the example memory cites this file."""
