"""Gorus Arena: a small deck-builder with a secret plan, an auction and attacks."""
