"""Gorus Maximus: trick-taking with a preferred school that a Challenge can change mid-bout."""
