"""apps stage of mainspring."""
