"""Agents (bots): everything that chooses actions from a :class:`~ludus.core.game.SeatView`."""
