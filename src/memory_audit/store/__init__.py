"""What the tool keeps between runs: runs and findings history, dismissals, alerts sent,
report folders and their summaries, the instance lock.

Below ``fix``, ``daemon`` and ``commands``: the commands read what the service wrote
without importing the service. Light on purpose: the session hook imports
``dismissals`` and ``summary_reader`` at every session start.
"""
