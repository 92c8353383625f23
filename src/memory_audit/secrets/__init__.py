"""Finding secrets in text: the rules, one scanner, and redaction.

Shared by the ``secrets`` dimension and the daemon's scan of changed files.
Nothing here ever returns, logs or raises with the text of a secret: a match
carries its position, a redacted form and a salted fingerprint.
"""
