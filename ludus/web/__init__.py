"""The browser client: static pages served by the package itself (no Node toolchain).

A game gets its page by naming a script in its plugin (``page.js`` in its package, served
at ``/games/<name>/page.js``, with the data from its ``page.py``); games without one are
shown by the generic page, which lists the observation and the legal moves.
"""
