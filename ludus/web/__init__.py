"""The browser client: static pages served by the package itself (no Node toolchain).

A game gets its page by adding ``static/games/<name>.js`` (and, if its page needs data
from the rules package, a function in :mod:`ludus.web.pages`); games without one are
shown by the generic page, which lists the observation and the legal moves.
"""
