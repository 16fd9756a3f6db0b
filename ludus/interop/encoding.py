"""Observation encoders (kept here for older imports; they live in :mod:`ludus.core.encoding`)."""

from ..core.encoding import EncoderFactory, HashedEncoder, ObservationEncoder, Piece

__all__ = ["EncoderFactory", "HashedEncoder", "ObservationEncoder", "Piece"]
