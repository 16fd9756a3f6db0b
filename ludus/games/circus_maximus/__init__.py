"""Circus Maximus (Jeffrey D. Allers, 2008): traders queue for favours, tickets and visitors."""
