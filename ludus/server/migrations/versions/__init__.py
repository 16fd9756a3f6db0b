"""One module per schema revision; add a new one (never edit a shipped one) to change the schema."""
