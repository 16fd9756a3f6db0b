"""Ludus: card games of the Roman arena — rules engine, bots, clients and tools."""

__version__ = "0.1.0"
