"""One module per command; each ``run`` takes plain keyword arguments, returns an exit code."""
