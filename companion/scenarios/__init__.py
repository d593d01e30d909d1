"""Example scenarios, one per system (package data)."""
