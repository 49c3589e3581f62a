"""Arenas (tournaments): a fixed time, players join whenever they like, and a new game starts
as soon as a table can be filled (issue #26). See games/arenas/services.py."""
