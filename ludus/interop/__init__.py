"""Bridges to other libraries: OpenSpiel games, PettingZoo and Gymnasium environments.

The bridge modules import their library on use (``ludus.interop.openspiel`` needs
``pyspiel``), so installing Ludus without the ``interop`` extra costs nothing here.
"""
