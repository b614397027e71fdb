"""splendor: fast, exact engines and a strong AI for the Splendor family."""
