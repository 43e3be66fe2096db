"""Tests: unit and end-to-end."""
