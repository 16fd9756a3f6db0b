"""The ``ludus`` command line: play, replay, list games (and more as later layers add them)."""
