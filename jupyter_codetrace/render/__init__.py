"""Pure functions Result -> str: ``markdown`` (notebooks, agents), ``text`` (terminals, seed formats)."""

__all__ = ["markdown", "text"]
